import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { syncActivity, syncLinks, syncStates } from '#server/db/schema/sync.tables.ts';
import { signInThroughEmulator } from '#server/test/sign-in.ts';
import { createTestApp, crossSite, sameOrigin } from '#server/test/test-app.ts';

type Cookies = Record<string, string>;
const SINCE = new Date('2026-11-25T08:55:00.000Z');

/**
 * `POST /api/sync/held/:choice`, the user's choice on removals the safety brake held back, through the
 * whole app: its schema (a choice for all, or for items named by their ids), and a 409 in our words for
 * what cannot be chosen. The held state is written as a run leaves it; the runs themselves are the
 * sync's integration tests' (sync-safety-brake.integration.test.ts).
 */
describe('the safety brake’s choice', () => {
  let app: App;
  let counter = 0;
  beforeAll(async () => {
    app = await createTestApp({ overrides: { role: 'web' } });
  });
  afterAll(() => app.close());

  const newUser = async () => {
    counter += 1;
    const result = await signInThroughEmulator(app.server, 'google', {
      email: `held-${counter}@example.com`,
      name: 'Hel D',
    });
    const cookies = { sid: result.sessionCookie?.value ?? '' };
    const id: string = (await app.server.inject({ url: '/api/current_user', cookies })).json().id;
    return { cookies, id };
  };
  /** Three events held back, as the run that held them logged them. */
  const holdThree = async (userId: string) => {
    await app.database.db.insert(syncStates).values({ userId, heldEvents: 3, heldSince: SINCE });
    await app.database.db.insert(syncActivity).values(
      [1, 2, 3].map((n) => ({
        userId,
        at: SINCE,
        direction: 'todoist-to-calendar' as const,
        action: 'held' as const,
        taskId: `task-${n}`,
        eventId: `event-${n}`,
      })),
    );
  };
  const choose = (
    cookies: Cookies,
    choice: string,
    payload?: unknown,
    headers: Record<string, string> = sameOrigin,
  ) =>
    app.server.inject({
      method: 'POST',
      url: `/api/sync/held/${choice}`,
      cookies,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('asks for sign-in, and refuses a choice from another site', async () => {
    expect((await choose({}, 'keep', {})).statusCode).toBe(401);
    const { cookies, id } = await newUser();
    await holdThree(id);
    expect((await choose(cookies, 'keep', {}, crossSite)).statusCode).toBe(403);
  });

  it('takes a choice for items named by their ids, and shows each item with its own choice', async () => {
    const { cookies, id } = await newUser();
    await holdThree(id);
    const kept = await choose(cookies, 'keep', { items: [{ taskId: 'task-1', eventId: 'event-1' }] });
    expect(kept.statusCode).toBe(200);
    // One id is enough to name a held pair.
    const removed = await choose(cookies, 'remove', { items: [{ taskId: null, eventId: 'event-2' }] });
    expect(removed.statusCode).toBe(200);
    const held = removed.json().heldRemovals;
    expect(held).toMatchObject({ events: 3, tasks: 0, choice: null });
    const byTask = Object.fromEntries(
      held.items.map((item: { taskId: string; choice: string | null }) => [item.taskId, item]),
    );
    expect(byTask).toEqual({
      'task-1': { taskId: 'task-1', eventId: 'event-1', removes: 'event', choice: 'keep' },
      'task-2': { taskId: 'task-2', eventId: 'event-2', removes: 'event', choice: 'remove' },
      'task-3': { taskId: 'task-3', eventId: 'event-3', removes: 'event', choice: null },
    });
    const activity = await app.server.inject({ url: '/api/sync/activity', cookies });
    expect(activity.json().heldRemovals).toEqual(held);
  });

  it('still takes today’s choice for all, with an empty body, leaving the items’ own choices', async () => {
    const { cookies, id } = await newUser();
    await holdThree(id);
    await choose(cookies, 'keep', { items: [{ taskId: 'task-3', eventId: 'event-3' }] });
    const all = await choose(cookies, 'remove', {});
    expect(all.statusCode).toBe(200);
    expect(all.json().heldRemovals).toMatchObject({ choice: 'remove' });
    expect(all.json().heldRemovals.items.map((item: { choice: string | null }) => item.choice)).toContain(
      'keep',
    );
  });

  it('refuses a malformed choice with a 400, saving nothing', async () => {
    const { cookies, id } = await newUser();
    await holdThree(id);
    const cases: [string, unknown][] = [
      ['maybe', {}],
      ['remove', { items: [] }],
      ['remove', { items: [{ taskId: null, eventId: null }] }],
      ['remove', { items: [{ taskId: '', eventId: 'event-1' }] }],
      ['remove', { items: [{ taskId: 'task-1\u0000', eventId: null }] }],
      ['remove', { items: [{ taskId: 'x'.repeat(1001), eventId: null }] }],
      ['remove', { items: [{ taskId: 7, eventId: null }] }],
      ['remove', { items: Array.from({ length: 101 }, () => ({ taskId: 'task-1', eventId: 'event-1' })) }],
      ['remove', { items: 'all' }],
    ];
    for (const [choice, payload] of cases) {
      const response = await choose(cookies, choice, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const activity = await app.server.inject({ url: '/api/sync/activity', cookies });
    expect(activity.json().heldRemovals).toMatchObject({ choice: null });
    expect(activity.json().heldRemovals.items.every((item: { choice: null }) => item.choice === null)).toBe(
      true,
    );
  });

  it('answers a 409 in our words for an item that is not held, or when nothing is', async () => {
    const { cookies, id } = await newUser();
    const nothing = await choose(cookies, 'remove', { items: [{ taskId: 'task-1', eventId: 'event-1' }] });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json()).toEqual({ error: 'conflict', message: 'Nothing is held back.' });

    await holdThree(id);
    const stranger = await choose(cookies, 'keep', { items: [{ taskId: 'task-9', eventId: 'event-9' }] });
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json()).toEqual({
      error: 'conflict',
      message: 'This item is not held back any more, so your choice was not saved.',
    });
    // One wrong item of several: nothing of the choice is saved.
    const mixed = await choose(cookies, 'keep', {
      items: [
        { taskId: 'task-1', eventId: 'event-1' },
        { taskId: 'task-1', eventId: 'event-2' },
      ],
    });
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json().message).toBe(
      'Some of these items are not held back any more, so your choice was not saved.',
    );
    const activity = await app.server.inject({ url: '/api/sync/activity', cookies });
    expect(activity.json().heldRemovals.items.map((item: { choice: null }) => item.choice)).toEqual([
      null,
      null,
      null,
    ]);
  });
});

/**
 * `GET /api/sync/activity` lists the writes a provider refused for good as their pairs keep them (what,
 * who refused, the provider's status and reason code, when it is tried again on the back-off), the
 * user's own only. The refusals are written as a run leaves them (sync-refused-writes.integration.test.ts).
 */
describe('the activity’s refused writes', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ overrides: { role: 'web' } });
  });
  afterAll(() => app.close());

  const newUser = async (email: string) => {
    const result = await signInThroughEmulator(app.server, 'google', { email, name: 'Ref Used' });
    const cookies = { sid: result.sessionCookie?.value ?? '' };
    const id: string = (await app.server.inject({ url: '/api/current_user', cookies })).json().id;
    return { cookies, id };
  };
  const link = (userId: string, n: number, refusal: Partial<typeof syncLinks.$inferInsert>) => ({
    userId,
    taskId: `task-${n}`,
    eventId: `event-${n}`,
    calendarId: 'cal',
    origin: 'task' as const,
    titleHash: `hash-${n}`,
    startAt: new Date('2026-11-26T08:00:00.000Z'),
    taskMinutes: 30,
    eventMinutes: 30,
    appearanceHash: '',
    taskMeta: { labels: ['30min'], dueTimezone: null, recurrence: null },
    ...refusal,
  });

  it('names each refused pair with who refused, why, and when it is tried again', async () => {
    const { cookies, id } = await newUser('refused-1@example.com');
    const other = await newUser('refused-2@example.com');
    await app.database.db.insert(syncStates).values({ userId: id, calendarProvider: 'google' });
    await app.database.db.insert(syncLinks).values([
      link(id, 1, {
        eventId: null,
        refusedWrite: 'event-create',
        refusedStatus: 403,
        refusedReason: 'forbiddenForNonOrganizer',
        refusedAt: new Date('2026-11-25T09:00:00.000Z'),
        refusedCount: 1,
      }),
      link(id, 2, {
        refusedWrite: 'task-update',
        refusedStatus: 400,
        refusedReason: 'INVALID_ARGUMENT_VALUE',
        refusedAt: new Date('2026-11-25T10:00:00.000Z'),
        refusedCount: 3,
      }),
      link(id, 3, {}),
      link(other.id, 4, {
        refusedWrite: 'event-update',
        refusedStatus: 404,
        refusedReason: 'notFound',
        refusedAt: new Date('2026-11-25T10:00:00.000Z'),
        refusedCount: 1,
      }),
    ]);

    const response = await app.server.inject({ url: '/api/sync/activity', cookies });
    expect(response.statusCode).toBe(200);
    expect(response.json().refusedWrites).toEqual({
      total: 2,
      items: [
        {
          taskId: 'task-2',
          eventId: 'event-2',
          write: 'task-update',
          provider: 'todoist',
          status: 400,
          reason: 'INVALID_ARGUMENT_VALUE',
          refusedAt: '2026-11-25T10:00:00.000Z',
          refusals: 3,
          // The third refusal in a row waits four hours.
          retryAt: '2026-11-25T14:00:00.000Z',
        },
        {
          taskId: 'task-1',
          eventId: null,
          write: 'event-create',
          provider: 'google',
          status: 403,
          reason: 'forbiddenForNonOrganizer',
          refusedAt: '2026-11-25T09:00:00.000Z',
          refusals: 1,
          retryAt: '2026-11-25T09:15:00.000Z',
        },
      ],
    });
    const nothing = await app.server.inject({ url: '/api/sync/activity', cookies: other.cookies });
    expect(nothing.json().refusedWrites).toMatchObject({ total: 1, items: [{ taskId: 'task-4' }] });
  });

  it('has none to show while no write is refused', async () => {
    const { cookies, id } = await newUser('refused-3@example.com');
    await app.database.db.insert(syncLinks).values(link(id, 5, {}));
    const response = await app.server.inject({ url: '/api/sync/activity', cookies });
    expect(response.json().refusedWrites).toBeNull();
  });
});
