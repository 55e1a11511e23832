import type { PgBoss } from 'pg-boss';
import { USER_SYNC_QUEUE } from './queue-jobs.ts';
import { userJob } from './user-sync-jobs.ts';

/** The fewest milliseconds between two batches of a reconcile's runs, and the most runs in one. */
const RECONCILE_BATCH_GAP_MS = 100;
const RECONCILE_BATCH_MAX = 500;

/**
 * How a reconcile queues `users` runs over `spreadMs`: batches at least 100 ms apart (one insert each,
 * so queueing keeps up at any number of users), as small as that allows, so the load stays even.
 */
export function reconcileBatches(users: number, spreadMs: number): { size: number; gapMs: number } {
  if (users === 0 || spreadMs === 0) return { size: RECONCILE_BATCH_MAX, gapMs: 0 };
  const size = Math.min(RECONCILE_BATCH_MAX, Math.ceil((users * RECONCILE_BATCH_GAP_MS) / spreadMs));
  return { size, gapMs: (spreadMs * size) / users };
}

/**
 * Queues a reconcile visit for each of these users, in random order, over `jitterSeconds`. The visits
 * are spread over the jitter window by sending them one after another, never by delaying the jobs: a
 * delayed job would hold the user's one waiting slot, and a notification arriving meanwhile would fold
 * into it and wait too.
 */
export async function queueReconcileVisits(
  boss: PgBoss,
  userIds: string[],
  jitterSeconds: number,
  /** Told how many jobs each batch queued (the lanes woken for them: job-queue.ts). */
  queued: (count: number) => void = () => {},
): Promise<void> {
  const users = shuffled(userIds);
  const { size, gapMs } = reconcileBatches(users.length, jitterSeconds * 1000);
  for (let from = 0; from < users.length; from += size) {
    const batch = users.slice(from, from + size).map((userId) => userJob(userId, 'reconcile'));
    await boss.insert(USER_SYNC_QUEUE, batch);
    queued(batch.length);
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}
