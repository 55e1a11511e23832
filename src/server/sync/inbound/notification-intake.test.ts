import { describe, expect, it } from 'vitest';
import { fakeClock } from '#server/domain/testing/fake-clock.ts';
import type { SyncSide } from '../sync-sides.ts';
import { createNotificationIntake } from './notification-intake.ts';

/** The intake with in-memory collaborators that log every statement; the first batch's queueing is held. */
function setUp() {
  const statements: string[] = [];
  const readRequests: { userIds: readonly string[]; sides: readonly SyncSide[] }[] = [];
  /** The users whose channel was recorded delivering, by batch. */
  const heard: string[][] = [];
  const queued: (readonly string[])[] = [];
  const completed: { userId: string; taskId: string }[] = [];
  const renewed: string[] = [];
  let releaseFirst: () => void = () => undefined;
  const firstHeld = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });
  const intake = createNotificationIntake({
    settings: {
      usersByTodoistIds: async (ids) => {
        statements.push(`users by Todoist id ${ids.join(',')}`);
        const known: Record<string, string> = { '41': 'ada', '42': 'bob' };
        return new Map(ids.flatMap((id) => (known[id] ? [[id, known[id]]] : [])));
      },
    },
    channels: {
      verify: async (pushes) => {
        statements.push(`channels ${pushes.map((push) => push.channelId).join(',')}`);
        return pushes.map(({ channelId, secret }) =>
          channelId === 'ada-channel' && secret === 'ada-secret' ? 'ada' : null,
        );
      },
    },
    states: {
      requestReads: async (userIds, sides, _now, delivered) => {
        statements.push('request reads');
        readRequests.push({ userIds, sides });
        if (delivered?.size) heard.push([...delivered]);
      },
      save: async (userId) => {
        statements.push('renew channel');
        renewed.push(userId);
      },
    },
    hints: {
      occurrencesCompleted: async (entries) => {
        if (entries.length > 0) statements.push('hints');
        completed.push(...entries);
      },
    },
    links: {
      // Ada's event ev-1 was last written (or read) by the sync at version v1.
      knownVersions: async (events) => {
        statements.push('known versions');
        return new Map(
          events.flatMap(({ userId, eventId }) =>
            userId === 'ada' && eventId === 'ev-1' ? [[`${userId} ${eventId}`, 'v1']] : [],
          ),
        );
      },
    },
    queue: {
      requestSyncs: async (userIds) => {
        statements.push('queue');
        queued.push(userIds);
        if (queued.length === 1) await firstHeld;
      },
    },
    clock: fakeClock('2026-11-25T09:00:00.000Z'),
  });
  return { intake, statements, readRequests, heard, queued, completed, renewed, releaseFirst };
}

describe('notification intake', () => {
  it('writes the notices that arrive while a batch is stored as one batch, a few statements in all', async () => {
    const { intake, statements, readRequests, queued, completed, releaseFirst } = setUp();
    const first = intake.submit({ source: 'app', userId: 'cy' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const burst = Promise.all([
      intake.submit({ source: 'todoist', todoistUserId: '41', completedOccurrence: null }),
      intake.submit({ source: 'todoist', todoistUserId: '41', completedOccurrence: 't7' }),
      intake.submit({ source: 'todoist', todoistUserId: '42', completedOccurrence: null }),
      intake.submit({ source: 'todoist', todoistUserId: '99', completedOccurrence: null }),
      intake.submit({ source: 'calendar', channelId: 'ada-channel', secret: 'ada-secret', lifecycle: false }),
      intake.submit({ source: 'calendar', channelId: 'ada-channel', secret: 'forged', lifecycle: false }),
    ]);
    releaseFirst();
    expect(await first).toBe('queued');
    expect(await burst).toEqual(['queued', 'queued', 'queued', 'ignored', 'queued', 'rejected']);

    // The first batch: the app's request alone. The second: every other notice, one statement per kind.
    expect(statements).toEqual([
      'request reads',
      'queue',
      'users by Todoist id 41,42,99',
      'channels ada-channel,ada-channel',
      'hints',
      'request reads',
      'request reads',
      'queue',
    ]);
    // Ada changed on both sides: one run reads both; Bob's reads only Todoist.
    expect(readRequests).toEqual([
      { userIds: ['cy'], sides: ['todoist', 'calendar'] },
      { userIds: ['ada'], sides: ['todoist', 'calendar'] },
      { userIds: ['bob'], sides: ['todoist'] },
    ]);
    expect(queued).toEqual([['cy'], ['ada', 'bob']]);
    expect(completed).toEqual([{ userId: 'ada', taskId: 't7' }]);
  });

  it('answers a notice carrying an id no provider sends as malformed, before it joins a batch', async () => {
    const { intake, statements, releaseFirst } = setUp();
    releaseFirst();
    const malformed = await Promise.all([
      intake.submit({ source: 'calendar', channelId: '\u0000', secret: 'x', lifecycle: false }),
      intake.submit({ source: 'calendar', channelId: 'ada-channel', secret: 'ada\ud800', lifecycle: true }),
      intake.submit({
        source: 'calendar',
        channelId: 'ada-channel',
        secret: 'ada-secret',
        lifecycle: false,
        changed: { eventId: 'ev 1', version: 'v1' },
      }),
      intake.submit({ source: 'todoist', todoistUserId: '4'.repeat(513), completedOccurrence: null }),
      intake.submit({ source: 'todoist', todoistUserId: '41', completedOccurrence: '' }),
    ]);
    expect(malformed).toEqual(['malformed', 'malformed', 'malformed', 'malformed', 'malformed']);
    expect(statements).toEqual([]);
  });

  it('renews the channel and reads both sides after a lifecycle notice; queues nothing for forged ones', async () => {
    const { intake, readRequests, queued, renewed, releaseFirst } = setUp();
    releaseFirst();
    expect(
      await intake.submit({
        source: 'calendar',
        channelId: 'ada-channel',
        secret: 'forged',
        lifecycle: true,
      }),
    ).toBe('rejected');
    expect(renewed).toEqual([]);
    expect(readRequests).toEqual([]);
    expect(
      await intake.submit({
        source: 'calendar',
        channelId: 'ada-channel',
        secret: 'ada-secret',
        lifecycle: true,
      }),
    ).toBe('queued');
    expect(renewed).toEqual(['ada']);
    expect(readRequests).toEqual([{ userIds: ['ada'], sides: ['todoist', 'calendar'] }]);
    expect(queued.flat()).toEqual(['ada']);
  });

  it('spares the read of a Graph notice naming an event at the version the sync recorded (its own write)', async () => {
    const { intake, statements, readRequests, heard, queued, releaseFirst } = setUp();
    releaseFirst();
    const push = {
      source: 'calendar',
      channelId: 'ada-channel',
      secret: 'ada-secret',
      lifecycle: false,
    } as const;
    expect(await intake.submit({ ...push, changed: { eventId: 'ev-1', version: 'v1' } })).toBe('queued');
    // No read is asked and nothing recorded: the quiet-channel check leaves the sync's own writes out.
    expect(statements).toEqual(['channels ada-channel', 'known versions']);
    expect(readRequests).toEqual([]);
    expect(heard).toEqual([]);
    expect(queued).toEqual([]);

    // The user changed it since (another version), or an event the sync does not know: read.
    expect(await intake.submit({ ...push, changed: { eventId: 'ev-1', version: 'v2' } })).toBe('queued');
    expect(await intake.submit({ ...push, changed: { eventId: 'ev-9', version: 'v1' } })).toBe('queued');
    // A notice naming no version (a deletion, or Google's pushes): read.
    expect(await intake.submit(push)).toBe('queued');
    expect(readRequests).toEqual([
      { userIds: ['ada'], sides: ['calendar'] },
      { userIds: ['ada'], sides: ['calendar'] },
      { userIds: ['ada'], sides: ['calendar'] },
    ]);
    // Each a change the channel delivered: it is alive (plan/quiet-channel.ts).
    expect(heard).toEqual([['ada'], ['ada'], ['ada']]);
  });
});
