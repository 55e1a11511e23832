import { describe, expect, it } from 'vitest';
import { fakeCalendar } from '#server/test/engine-fake-calendar.ts';
import { fakeTodoist, floatingDue } from '#server/test/engine-fake-todoist.ts';
import { fakeTokens } from '#server/test/engine-fake-tokens.ts';
import {
  inMemorySyncActivity,
  inMemorySyncLinks,
  inMemorySyncStates,
} from '#server/test/in-memory-sync-store.ts';
import { syncLink } from '../plan/plan.fixture.ts';
import { createActivityNames, NAME_READS_PER_MINUTE, NAMES_KEPT_MS } from './activity-names.ts';

const USER = 'user-1';
const NOON = new Date('2026-12-03T12:00:00Z');

/** A user whose activity names two tasks (one deleted since) and the event of the first, linked. */
async function setUp(options: { budgetWait?: number } = {}) {
  let now = new Date('2026-12-02T08:00:00Z');
  const clock = () => now;
  const todoist = fakeTodoist(clock);
  const calendar = fakeCalendar(clock);
  const tokens = fakeTokens();
  const activity = inMemorySyncActivity();
  const states = inMemorySyncStates();
  const links = inMemorySyncLinks(clock);
  const spent: number[] = [];
  await states.save(USER, { calendarProvider: 'google', calendarId: 'cal' }, now);

  const review = todoist.add({ content: 'Review PR', due: floatingDue('2026-12-03T10:00:00.000000') });
  const gone = todoist.add({ content: 'Old task' });
  todoist.remove(gone.id);
  const event = calendar.addEvent('cal', 'Review PR', NOON, 30);
  const stray = calendar.addEvent('cal', 'Someone else', new Date('2026-12-20T12:00:00Z'), 30);
  await links.insertPending(
    USER,
    syncLink({ taskId: review.id, eventId: event.id, calendarId: 'cal', startAt: NOON, eventMinutes: 30 }),
  );
  await activity.add(
    USER,
    [
      {
        direction: 'todoist-to-calendar',
        action: 'created',
        taskId: review.id,
        eventId: event.id,
        detail: null,
      },
      {
        direction: 'todoist-to-calendar',
        action: 'deleted',
        taskId: gone.id,
        eventId: stray.id,
        detail: null,
      },
    ],
    now,
  );
  const names = createActivityNames({
    activity,
    states,
    links,
    tasks: todoist,
    calendars: { google: calendar, microsoft: null },
    withToken: tokens.withToken,
    appBudget: {
      waitMs: async () => options.budgetWait ?? 0,
      spent: (_provider, calls) => spent.push(calls),
    },
    clock,
    log: { warn: () => {} },
  });
  const reads = () => ({
    todoist: todoist.calls.filter((call) => call.method === 'openTasks').length,
    calendar: calendar.calls.filter((call) => call.method === 'eventsBetween').length,
  });
  return {
    names,
    todoist,
    activity,
    links,
    tokens,
    reads,
    spent,
    ids: { review: review.id, gone: gone.id, event: event.id, stray: stray.id },
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
    now: () => now,
  };
}

describe('the names of the sync activity', () => {
  it('reads a page in one Todoist read and one calendar read: titles, a floating time, the gone ones', async () => {
    const { names, reads, spent, ids } = await setUp();
    const answer = await names.names(USER);
    expect(answer.tasks).toEqual({
      [ids.review]: { title: 'Review PR', when: { kind: 'floating', local: '2026-12-03T10:00' } },
      [ids.gone]: null,
    });
    // The linked event is read; the unlinked one has no known time and is neither looked for nor named.
    expect(answer.events).toEqual({
      [ids.event]: { title: 'Review PR', when: { kind: 'instant', start: NOON.toISOString() } },
    });
    expect(answer.unavailable).toEqual([]);
    expect(reads()).toEqual({ todoist: 1, calendar: 1 });
    expect(spent).toEqual([1]);
  });

  it('keeps names a few minutes, reads an item again once the activity names it anew, and forgets', async () => {
    const { names, reads, todoist, activity, ids, advance, now } = await setUp();
    await names.names(USER);
    advance(60_000);
    await names.names(USER);
    expect(reads()).toEqual({ todoist: 1, calendar: 1 });

    todoist.edit(ids.review, { content: 'Review the PR' });
    const update = { direction: 'todoist-to-calendar', action: 'updated', detail: 'title' } as const;
    await activity.add(USER, [{ ...update, taskId: ids.review, eventId: null }], now());
    expect((await names.names(USER)).tasks[ids.review]?.title).toBe('Review the PR');
    expect(reads()).toEqual({ todoist: 2, calendar: 1 });

    advance(NAMES_KEPT_MS);
    await names.names(USER);
    expect(reads()).toEqual({ todoist: 3, calendar: 2 });
  });

  it('reads at most the limit a minute: beyond it, the items show by id until the minute is over', async () => {
    const { names, reads, activity, ids, advance, now } = await setUp();
    const touch = async () => {
      advance(1000);
      const update = { direction: 'todoist-to-calendar', action: 'updated', detail: 'time' } as const;
      await activity.add(USER, [{ ...update, taskId: ids.review, eventId: null }], now());
    };
    for (let read = 0; read < NAME_READS_PER_MINUTE; read++) {
      await touch();
      expect((await names.names(USER)).unavailable).toEqual([]);
    }
    await touch();
    const refused = await names.names(USER);
    expect(refused.unavailable).toEqual(['todoist']);
    expect(reads().todoist).toBe(NAME_READS_PER_MINUTE);
    advance(60_000);
    expect((await names.names(USER)).unavailable).toEqual([]);
  });

  it('names what it can when a side cannot be read: Todoist to reconnect, the calendar budget spent', async () => {
    const broken = await setUp();
    broken.tokens.revoke('todoist');
    const withoutTodoist = await broken.names.names(USER);
    expect(withoutTodoist.unavailable).toEqual(['todoist']);
    expect(withoutTodoist.tasks).toEqual({});
    expect(withoutTodoist.events[broken.ids.event]?.title).toBe('Review PR');

    const busy = await setUp({ budgetWait: 5000 });
    const withoutCalendar = await busy.names.names(USER);
    expect(withoutCalendar.unavailable).toEqual(['calendar']);
    expect(busy.reads().calendar).toBe(0);
    expect(withoutCalendar.tasks[busy.ids.review]?.title).toBe('Review PR');
  });

  it('names the refused writes too, in the same reads: a task whose event Google refused to create', async () => {
    const { names, reads, todoist, links, now } = await setUp();
    const venue = todoist.add({ content: 'Book the venue', due: floatingDue('2026-12-04T09:00:00.000000') });
    await links.insertPending(
      USER,
      syncLink({
        id: 'l-venue',
        taskId: venue.id,
        eventId: null,
        calendarId: 'cal',
        refusedWrite: 'event-create',
        refusedStatus: 403,
        refusedReason: 'forbiddenForNonOrganizer',
        refusedAt: now(),
        refusedCount: 1,
      }),
    );
    const answer = await names.names(USER);
    expect(answer.tasks[venue.id]).toEqual({
      title: 'Book the venue',
      when: { kind: 'floating', local: '2026-12-04T09:00' },
    });
    expect(reads()).toEqual({ todoist: 1, calendar: 1 });
  });
});
