import type { App } from '#server/app.ts';
import type { SyncOutcome } from '#server/sync/run/sync-outcome.ts';
import { countStatements } from '#server/test/statement-counter.ts';
import type { RunStatements } from './protocol.ts';
import { now } from './stats.ts';

/** The job queue's statements, told apart by their SQL: a fetch from the user queue, a job completed. */
const FETCH = /^WITH next AS .*'user-runs'/;
const COMPLETE = /^WITH results AS \( UPDATE pgboss\.job_common SET completed_on/;

/**
 * Counts the statements of every sync run the app's engine makes (those issued in the run's own async
 * context), and the queue's fetches and completions, with when each happened. The app itself counts
 * nothing: this wraps its database calls in the benchmark's app process only.
 */
export function watchRunStatements(app: App) {
  const runs: { start: number; statements: number; outcome: SyncOutcome | null }[] = [];
  const queue: { at: number; kind: 'fetch' | 'fetched' | 'complete' }[] = [];
  const counter = countStatements(app.database, (sql) => {
    if (FETCH.test(sql)) queue.push({ at: now(), kind: 'fetch' });
    else if (COMPLETE.test(sql)) queue.push({ at: now(), kind: 'complete' });
  });
  const engine = app.sync.engine;
  const original = engine.run;
  engine.run = async (userId, options) => {
    const record = { start: now(), statements: 0, outcome: null as SyncOutcome | null };
    runs.push(record);
    const { result, statements } = await counter.during(() => original(userId, options));
    record.statements = statements.length;
    record.outcome = result;
    return result;
  };
  return {
    within({ from, to }: { from: number; to: number }): RunStatements {
      const synced = runs.filter(
        (run) => run.start >= from && run.start <= to && run.outcome?.status === 'synced',
      );
      const ofQueue = queue.filter((entry) => entry.at >= from && entry.at <= to);
      const wrote = (run: (typeof synced)[number]) =>
        run.outcome?.status === 'synced' && run.outcome.writes > 0;
      return {
        changeRuns: synced.filter(wrote).map((run) => run.statements),
        otherRuns: synced.filter((run) => !wrote(run)).map((run) => run.statements),
        fetches: ofQueue.filter((entry) => entry.kind === 'fetch').length,
        completions: ofQueue.filter((entry) => entry.kind === 'complete').length,
      };
    },
  };
}
