import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#server/domain/testing/fake-clock.ts';
import { createTodoistWebhookReader } from '#server/providers/todoist/todoist-webhook.ts';
import { createNotificationIntake } from './inbound/notification-intake.ts';
import type { SyncActivityRepository } from './store/sync-activity.repository.ts';
import { createSyncService } from './sync.service.ts';
import type { SyncSide } from './sync-sides.ts';

const SECRET = 'todoist-client-secret';
const USER = 'user-1';

/** The service and its intake with in-memory collaborators: what they queued, asked to read, noted. */
function setUp() {
  const clock = fakeClock('2026-11-25T09:00:00.000Z');
  const queued: string[] = [];
  const readRequests: { userIds: readonly string[]; sides: readonly SyncSide[] }[] = [];
  const hints: { userId: string; taskId: string }[] = [];
  const saved: { userId: string; patch: object }[] = [];
  const states = {
    requestReads: async (userIds: readonly string[], sides: readonly SyncSide[]) => {
      readRequests.push({ userIds, sides });
    },
    save: async (userId: string, patch: object) => {
      saved.push({ userId, patch });
    },
    find: async () => null,
    saveHeldChoice: async () => false,
  };
  const intake = createNotificationIntake({
    settings: {
      usersByTodoistIds: async (ids) => new Map(ids.filter((id) => id === '42').map((id) => [id, USER])),
    },
    channels: {
      verify: async (pushes) =>
        pushes.map(({ channelId, secret }) =>
          channelId === 'channel-1' && secret === 'channel-secret' ? USER : null,
        ),
    },
    states,
    hints: {
      occurrencesCompleted: async (completed) => {
        hints.push(...completed);
      },
    },
    links: { knownVersions: async () => new Map() },
    queue: {
      requestSyncs: async (userIds) => {
        queued.push(...userIds);
      },
    },
    clock,
  });
  const service = createSyncService({
    intake,
    channels: { stop: async () => undefined },
    states,
    activity: {} as SyncActivityRepository,
    links: { refused: async () => ({ total: 0, pairs: [] }) },
    appBudget: { heldUntil: async () => null },
    readTodoistWebhook: createTodoistWebhookReader(SECRET),
    parseGraphNotifications: (body) => {
      const parsed = JSON.parse(body) as { value?: { subscriptionId: string; clientState: string }[] };
      return parsed.value ?? null;
    },
    clock,
  });
  return { service, queued, readRequests, hints, saved };
}

const signed = (payload: unknown) => {
  const body = Buffer.from(JSON.stringify(payload));
  return { body, signature: createHmac('sha256', SECRET).update(body).digest('base64') };
};

describe('sync service', () => {
  it('turns a signed Todoist webhook into a run that reads Todoist only', async () => {
    const { service, queued, readRequests } = setUp();
    const { body, signature } = signed({ event_name: 'item:updated', user_id: 42, event_data: { id: 't1' } });
    expect(await service.todoistWebhook(body, signature)).toBe('queued');
    expect(readRequests).toEqual([{ userIds: [USER], sides: ['todoist'] }]);
    expect(queued).toEqual([USER]);
  });

  it('refuses a Todoist webhook with a wrong or missing signature, and ignores unknown accounts', async () => {
    const { service, queued, readRequests } = setUp();
    const { body } = signed({ event_name: 'item:added', user_id: 42 });
    const forged = createHmac('sha256', 'another-secret').update(body).digest('base64');
    expect(await service.todoistWebhook(body, forged)).toBe('rejected');
    expect(await service.todoistWebhook(body, undefined)).toBe('rejected');
    const stranger = signed({ event_name: 'item:added', user_id: 7 });
    expect(await service.todoistWebhook(stranger.body, stranger.signature)).toBe('ignored');
    expect(queued).toEqual([]);
    expect(readRequests).toEqual([]);
  });

  it('notes a completed occurrence of a recurring task, which a read cannot tell', async () => {
    const { service, hints } = setUp();
    const { body, signature } = signed({
      event_name: 'item:updated',
      user_id: 42,
      event_data: { id: 't9' },
      event_data_extra: { update_intent: 'item_completed', old_item: { due: { is_recurring: true } } },
    });
    expect(await service.todoistWebhook(body, signature)).toBe('queued');
    expect(hints).toEqual([{ userId: USER, taskId: 't9' }]);
  });

  it('turns a verified calendar push into a run that reads the calendar only', async () => {
    const { service, queued, readRequests } = setUp();
    expect(await service.calendarPush('channel-1', 'channel-secret')).toBe('queued');
    expect(readRequests).toEqual([{ userIds: [USER], sides: ['calendar'] }]);
    expect(queued).toEqual([USER]);
    expect(await service.calendarPush('channel-1', 'wrong')).toBe('rejected');
    expect(await service.calendarPush(undefined, 'channel-secret')).toBe('rejected');
    expect(queued).toEqual([USER]);
  });

  it('reads both sides after a Graph lifecycle notice, and renews the channel on that run', async () => {
    const { service, readRequests, saved } = setUp();
    const body = JSON.stringify({ value: [{ subscriptionId: 'channel-1', clientState: 'channel-secret' }] });
    expect(await service.graphNotifications(body, true)).toBe('queued');
    expect(readRequests).toEqual([{ userIds: [USER], sides: ['todoist', 'calendar'] }]);
    expect(saved).toEqual([{ userId: USER, patch: { channelExpiresAt: new Date(0) } }]);
  });

  it('refuses a Graph body when any of its notifications cannot be verified, queueing the verified ones', async () => {
    const { service, queued } = setUp();
    const body = JSON.stringify({
      value: [
        { subscriptionId: 'channel-1', clientState: 'channel-secret' },
        { subscriptionId: 'channel-1', clientState: 'forged' },
      ],
    });
    expect(await service.graphNotifications(body, false)).toBe('rejected');
    expect(queued).toEqual([USER]);
  });

  it('reads both sides for anything but a notification, and for every user the reconcile visits', async () => {
    const { service, queued, readRequests } = setUp();
    await service.request(USER);
    await service.requestReadsOfAll(['user-2', 'user-3']);
    expect(readRequests).toEqual([
      { userIds: [USER], sides: ['todoist', 'calendar'] },
      { userIds: ['user-2', 'user-3'], sides: ['todoist', 'calendar'] },
    ]);
    expect(queued).toEqual([USER]);
  });
});
