import type { Job, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '#server/db/client.ts';
import { LEGACY_USER_SYNC_QUEUE, type SyncTrigger, USER_SYNC_QUEUE, userSyncJob } from './queue-jobs.ts';

/**
 * Live changes before routine work: a run a user's change asked for (a notification, a setting, the
 * switch), or such a run a provider asked us to run later, is fetched before any reconcile run waiting,
 * so a reconcile wave never holds a live change back.
 */
const LIVE_PRIORITY = 10;

/**
 * A user's sync job: one waiting per user (singleton key), none started while another runs (group).
 * Decision 018: the `short` policy with the user id as singleton key keeps one waiting job per user, so
 * a burst of notifications becomes one run; the user id as the job's group, worked with a group
 * concurrency of one, starts no job of a user while another is active, judged from the job table at each
 * fetch (the `stately` policy judged it from statistics up to two seconds old, and held a user's next
 * change back that long after their last run); the run lease (sync/run/run-lease.ts) makes it a guarantee.
 */
export function userJob(userId: string, trigger?: SyncTrigger) {
  return {
    data: trigger ? { userId, trigger } : { userId },
    singletonKey: userId,
    group: { id: userId },
    priority: trigger === 'reconcile' ? 0 : LIVE_PRIORITY,
  };
}

/**
 * Raises the waiting job of each named user ($3) to the live priority ($1) and says whose job waits; a
 * reconcile run held back for the app's budget is due at once (a change's run may spend the share kept
 * for changes). A job already at that priority is left as it is; one fetched meanwhile is not touched.
 */
const raiseWaiting = `
  with waiting as (
    select id, singleton_key, priority from pgboss.job
     where name = $2 and state = 'created' and singleton_key = any($3::text[])),
  raised as (
    update pgboss.job job set priority = $1, data = job.data - 'trigger', start_after = least(job.start_after, now())
      from waiting
     where job.name = $2 and job.id = waiting.id and waiting.priority < $1 and job.state = 'created')
  select singleton_key as "userId", priority < $1 as raised from waiting`;

/**
 * Asks for a sync of these users soon, in one statement; a user whose run waits has it fold in.
 * Answers how many jobs this made ready to be fetched (queued, or raised from a reconcile's).
 */
export async function requestUserSyncs(
  boss: PgBoss,
  database: Database,
  userIds: readonly string[],
): Promise<number> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return 0;
  // A user's waiting run (the queue keeps one) takes the request: a reconcile run becomes the live
  // change's, fetched as one. Only users without one get a job, so a user who changes things while
  // their run waits costs one statement per request, not two.
  const { rows } = await database.notificationSql.executeSql(raiseWaiting, [
    LIVE_PRIORITY,
    USER_SYNC_QUEUE,
    unique,
  ]);
  const found = rows as { userId: string; raised: boolean }[];
  const raised = found.filter((row) => row.raised).length;
  const waiting = new Set(found.map((row) => row.userId));
  const missing = unique.filter((userId) => !waiting.has(userId));
  if (missing.length === 0) return raised;
  const inserted = await boss.insert(
    USER_SYNC_QUEUE,
    missing.map((userId) => userJob(userId)),
    { db: database.notificationSql, returnId: true },
  );
  // A job queued for one of them in between (a reconcile's) was skipped by the insert: raise it too.
  if ((inserted?.length ?? 0) < missing.length)
    await database.notificationSql.executeSql(raiseWaiting, [LIVE_PRIORITY, USER_SYNC_QUEUE, missing]);
  return raised + missing.length;
}

/** Runs one user's sync job in a lane, and queues it again when a provider asked us to wait. */
export function userSyncJobRunner(
  boss: PgBoss,
  handlers: {
    sync(userId: string, trigger: SyncTrigger, failedBefore: number): Promise<{ retryAfterMs?: number }>;
  },
  log: Logger,
) {
  return async (job: Job<unknown>): Promise<void> => {
    const { userId, trigger } = userSyncJob.parse(job.data);
    const reason = job.retryCount > 0 ? 'retry' : (trigger ?? 'change');
    const outcome = await handlers.sync(userId, reason, job.retryCount).catch((error: unknown) => {
      // pg-boss retries the job with back-off; say so, or a failing user fails silently.
      log.warn({ userId, err: error, retry: job.retryCount }, 'sync run failed');
      throw error;
    });
    if (outcome.retryAfterMs !== undefined) {
      // A provider asked us to wait: the next run starts after that, not before. A reconcile visit
      // held back stays one (its priority, its share of the app's budget); a change's run retries.
      const { data, ...again } = userJob(userId, reason === 'reconcile' ? 'reconcile' : 'retry');
      await boss.send(USER_SYNC_QUEUE, data, {
        ...again,
        startAfter: Math.ceil(outcome.retryAfterMs / 1000),
      });
    }
  };
}

/** Users waiting in the queue an earlier version used get a job in this one; that queue goes. */
export async function moveLegacyUserJobs(boss: PgBoss) {
  if (!(await boss.getQueue(LEGACY_USER_SYNC_QUEUE))) return;
  const { rows } = await boss
    .getDb()
    .executeSql(
      `select distinct singleton_key as "userId" from pgboss.job where name = $1 and state < 'active'`,
      [LEGACY_USER_SYNC_QUEUE],
    );
  const userIds = (rows as { userId: string | null }[]).flatMap((row) => (row.userId ? [row.userId] : []));
  if (userIds.length > 0)
    await boss.insert(
      USER_SYNC_QUEUE,
      userIds.map((userId) => userJob(userId)),
    );
  await boss.deleteQueue(LEGACY_USER_SYNC_QUEUE);
}
