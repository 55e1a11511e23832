import type { Logger } from 'pino';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { SyncTrigger } from '#server/jobs/queue-jobs.ts';
import type { Metrics } from '#server/metrics/metrics.ts';
import type { LeasePhase } from './run/run-lease.ts';
import type { SyncOutcome } from './run/sync-outcome.ts';
import type { SyncModule } from './sync-module.ts';

/** After this many failed runs in a row (the first try and its retries), the user sees a problem. */
export const RUN_FAILURES_BEFORE_PROBLEM = 3;

/**
 * A queued sync run that ended (not one that failed and will be retried), times in epoch ms:
 * `readFrom`, when it sent the statement that took its lease and read its settings (nothing it read is
 * older; a change committed before then is in its reads); `startedAt` and `endedAt`, while it held the
 * lease.
 */
export type SyncRunReport = {
  userId: string;
  readFrom: number;
  startedAt: number;
  endedAt: number;
  outcome: SyncOutcome;
};

export type SyncWorkerDeps = {
  sync: Pick<SyncModule, 'engine' | 'service' | 'settings'>;
  metrics: Pick<Metrics, 'syncRunStarted'>;
  /** After a run that may have started or ended a notice (`noticesMayChange`), failed or not. */
  afterRun: (userId: string) => void;
  /** At every reconcile: what only time brings (a quota problem an hour old, a trial's last days). */
  onReconcile: () => void;
  /** Told of every queued sync run as it ends (tests and the benchmark watch the worker with it). */
  onSyncRun?: (run: SyncRunReport) => void;
  clock: Clock;
  log: Logger;
};

/**
 * Whether a run may have started or ended a notice (docs/product-rules.md §11): not a run that went
 * through for a user without problems (it raised none and had none to solve), nor one that never started
 * because another run of the user held the lease. Notices that only time brings are the reconcile's.
 */
export function noticesMayChange(outcome: SyncOutcome): boolean {
  if (outcome.status === 'synced') return outcome.problems;
  return !(outcome.status === 'retry-later' && outcome.anotherRun);
}

/** The job handlers of the sync: one user's run, and the periodic reconcile of every active user. */
export function createSyncWorker(deps: SyncWorkerDeps) {
  const { clock } = deps;
  return {
    /** `failedBefore`: how many runs of this job failed before this one (its retries so far). */
    async sync(userId: string, trigger: SyncTrigger, failedBefore = 0): Promise<{ retryAfterMs?: number }> {
      // The run's time is while it holds its user's lease (a job that found it taken ran nothing).
      let readFrom = clock().getTime();
      let startedAt = readFrom;
      let endedAt: number | null = null;
      const held = (phase: LeasePhase) => {
        if (phase === 'reading') readFrom = clock().getTime();
        else if (phase === 'start') startedAt = clock().getTime();
        else endedAt = clock().getTime();
      };
      const runEnded = deps.metrics.syncRunStarted(trigger);
      const outcome = await deps.sync.engine
        .run(userId, { spaced: true, routine: trigger === 'reconcile', requestedSidesOnly: true, held })
        .catch(async (error: unknown) => {
          runEnded('failed');
          // A run that keeps failing is never silent: the dashboard names it, and a mail if it lasts.
          if (failedBefore + 1 >= RUN_FAILURES_BEFORE_PROBLEM) {
            await deps.sync.service
              .runsKeepFailing(userId)
              .catch((raiseError: unknown) =>
                deps.log.warn({ userId, err: raiseError }, 'could not record failing runs'),
              );
          }
          deps.afterRun(userId);
          throw error;
        });
      runEnded(outcome.status);
      if (noticesMayChange(outcome)) deps.afterRun(userId);
      deps.log.info({ userId, outcome }, 'sync run');
      deps.onSyncRun?.({ userId, readFrom, startedAt, endedAt: endedAt ?? clock().getTime(), outcome });
      return outcome.status === 'retry-later' ? { retryAfterMs: outcome.afterMs } : {};
    },

    async reconcile(): Promise<string[]> {
      const userIds = await deps.sync.settings.activeUsers();
      await deps.sync.service.requestReadsOfAll(userIds);
      deps.onReconcile();
      return userIds;
    },
  };
}
