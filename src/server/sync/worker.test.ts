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

describe('the report of a queued run', () => {
  it('says when the run sent the statement reading its settings, apart from when it held the lease', async () => {
    const clock = fakeClock('2026-12-04T09:00:00.000Z');
    const reports: unknown[] = [];
    const sync = {
      engine: {
        // The statement that takes the lease and reads the settings answers 40 ms after it was sent.
        run: async (_userId: string, options: { held: (phase: string) => void }) => {
          options.held('reading');
          clock.advance(40);
          options.held('start');
          clock.advance(10);
          options.held('end');
          return { status: 'skipped', reason: 'switched-off' };
        },
      },
      service: {},
      settings: {},
    } as unknown as SyncWorkerDeps['sync'];
    const worker = createSyncWorker({
      sync,
      metrics: { syncRunStarted: () => () => undefined },
      afterRun: () => undefined,
      onReconcile: () => undefined,
      onSyncRun: (run) => reports.push(run),
      clock,
      log: pino({ level: 'silent' }),
    });
    await worker.sync('ada', 'change');
    // A waiter that switched sync on at 09:00:00.020 must not take this run for its own: it read sync
    // off before that, though it held the lease only after.
    expect(reports).toEqual([
      {
        userId: 'ada',
        readFrom: Date.parse('2026-12-04T09:00:00.000Z'),
        startedAt: Date.parse('2026-12-04T09:00:00.040Z'),
        endedAt: Date.parse('2026-12-04T09:00:00.050Z'),
        outcome: { status: 'skipped', reason: 'switched-off' },
      },
    ]);
  });
});
