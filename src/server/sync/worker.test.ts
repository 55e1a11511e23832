import { describe, expect, it } from 'vitest';
import type { SyncSide } from './sync-sides.ts';
import { noticesMayChange } from './worker.ts';

describe('notices after a queued run', () => {
  const reads: SyncSide[] = ['todoist'];
  const synced = { status: 'synced', plans: 1, writes: 1, reads } as const;

  it('are checked when a run went through for a user with problems, and not without', () => {
    expect(noticesMayChange({ ...synced, problems: true })).toBe(true);
    expect(noticesMayChange({ ...synced, problems: false })).toBe(false);
  });

  it('are checked after a blocked or skipped run and after a back-off, not when the run never started', () => {
    expect(noticesMayChange({ status: 'blocked', problem: 'reconnect-todoist' })).toBe(true);
    expect(noticesMayChange({ status: 'skipped', reason: 'not-entitled' })).toBe(true);
    expect(noticesMayChange({ status: 'retry-later', afterMs: 60_000 })).toBe(true);
    expect(noticesMayChange({ status: 'retry-later', afterMs: 1000, anotherRun: true })).toBe(false);
  });
});
