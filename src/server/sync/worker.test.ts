import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#server/domain/testing/fake-clock.ts';
import type { SyncSide } from './sync-sides.ts';
import {
  createSyncWorker,
  noticesMayChange,
  RUN_FAILURES_BEFORE_PROBLEM,
  type SyncWorkerDeps,
} from './worker.ts';

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

describe('a run that keeps failing', () => {
  /** A worker whose every run fails with an error of ours; it records whom it named failing and checked. */
  function failingWorker() {
    const failing: string[] = [];
    const checked: string[] = [];
    const sync = {
      engine: { run: async () => Promise.reject(new Error('a statement failed')) },
      service: {
        runsKeepFailing: async (userId: string) => {
          failing.push(userId);
        },
      },
      settings: {},
    } as unknown as SyncWorkerDeps['sync'];
    const worker = createSyncWorker({
      sync,
      metrics: { syncRunStarted: () => () => undefined },
      afterRun: (userId) => checked.push(userId),
      onReconcile: () => undefined,
      clock: fakeClock('2026-11-25T09:00:00.000Z'),
      log: pino({ level: 'silent' }),
    });
    return { worker, failing, checked };
  }

  it('becomes a problem of its user on the failure that ends the streak, and fails the job all the same', async () => {
    const { worker, failing, checked } = failingWorker();
    for (let failedBefore = 0; failedBefore < RUN_FAILURES_BEFORE_PROBLEM - 1; failedBefore += 1) {
      await expect(worker.sync('ada', 'change', failedBefore)).rejects.toThrow('a statement failed');
    }
    expect(failing).toEqual([]);
    await expect(worker.sync('ada', 'retry', RUN_FAILURES_BEFORE_PROBLEM - 1)).rejects.toThrow(
      'a statement failed',
    );
    expect(failing).toEqual(['ada']);
    // Every failure is followed by the notice check, which mails the problem once it has lasted.
    expect(checked).toEqual(Array.from({ length: RUN_FAILURES_BEFORE_PROBLEM }, () => 'ada'));
  });
});
