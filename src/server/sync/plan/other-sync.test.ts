import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import { otherSyncSeen } from './other-sync.ts';
import { blankEvent } from './snapshots.ts';
import { eventWanted } from './sync-scope.ts';

const NOW = new Date('2026-07-15T06:00:00Z');
const start = new Date('2026-07-16T07:00:00Z');
const timed = { title: 'Dentist', start, end: new Date(start.getTime() + 30 * 60_000) };
const fromTodoist = blankEvent('e1', { ...timed, otherSync: 'todoist' });

describe('another sync’s events', () => {
  it('are never turned into tasks; the user’s own events of the same look are', () => {
    expect(eventWanted(fromTodoist, syncSettings(), NOW)).toBe(false);
    expect(eventWanted(blankEvent('e2', timed), syncSettings(), NOW)).toBe(true);
  });
});

describe('otherSyncSeen', () => {
  it('keeps the first such event a run reads, once', () => {
    expect(otherSyncSeen(null, [fromTodoist], [], NOW)).toEqual({
      otherSync: { tool: 'todoist', seenAt: NOW.toISOString(), dismissed: false },
    });
    const seen = {
      otherSync: { tool: 'todoist' as const, seenAt: '2026-07-01T00:00:00.000Z', dismissed: true },
    };
    expect(otherSyncSeen(seen, [fromTodoist], [], NOW)).toEqual({});
  });

  it('ignores our own events, events linked to a task, deleted ones and the user’s own', () => {
    const ours = blankEvent('e3', { ...timed, otherSync: 'todoist', taskTag: 't1' });
    const linked = blankEvent('e4', { ...timed, otherSync: 'todoist' });
    const deleted = blankEvent('e5', { ...timed, otherSync: 'todoist', deleted: true });
    const own = blankEvent('e6', timed);
    expect(otherSyncSeen(null, [ours, linked, deleted, own], [{ eventId: 'e4' }], NOW)).toEqual({});
  });
});
