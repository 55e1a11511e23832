import { fromPglite, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '#server/db/client.ts';
import { NOTICE_MAIL_QUEUE, RECONCILE_QUEUE, STRIPE_EVENT_QUEUE, USER_SYNC_QUEUE } from './queue-jobs.ts';
import { moveLegacyUserJobs } from './user-sync-jobs.ts';

/**
 * A worker that dies mid-run (killed, out of memory, machine gone) stops sending heartbeats; its job
 * is then failed and retried by any live process within about heartbeat + supervise interval, instead
 * of holding the user's one running slot until `expireInSeconds`.
 */
const SYNC_HEARTBEAT_SECONDS = 10;
/**
 * Connections of the queue's own pool on PostgreSQL: every lane's fetch and every job's completion go
 * through it, so it bounds the runs in flight beyond 64 lanes (48–59 with 128 or 256 lanes open). Eight
 * with 128 lanes kept about 95 in flight, and changes at 500 users waited half as long in the queue,
 * but live changes during a reconcile wave of 10,000 users got slower (p95 0.49 → 0.70 s): not taken
 * yet (docs/performance.md, evening of 2026-11-28).
 */
const QUEUE_POOL_SIZE = 4;
/**
 * Supervise passes every second (pg-boss's shortest): a dead worker's job is retried within about 11 s.
 * The queue statistics and cache follow at the same pace (the queue metrics read them). Completed sync
 * jobs are deleted after an hour, so the statistics, a scan of the job table, stay cheap.
 */
const LIVENESS = {
  superviseIntervalSeconds: 1,
  monitorIntervalSeconds: 1,
  queueCacheIntervalSeconds: 1,
} as const;

/**
 * Whether a job queued for a user's sync wakes the sync lanes through NOTIFY. On a server it must: the
 * lanes are in other processes. NOTIFY wakes every lane of the queue for each job, each of which
 * fetches, and embedded every fetch waits for the one connection the acknowledgements and the runs
 * share (about seven fetches a job with 16 lanes open); there the lanes and every sender of a job are
 * in the same process, so the sender wakes as many lanes as it queued jobs (job-queue.ts) instead.
 */
export const syncJobsNotify = (kind: Database['kind']) => kind === 'postgres';

/**
 * pg-boss on the app's database (PGlite embedded or PostgreSQL), started, with the app's queues made
 * or brought up to date. `reconcileJitterSeconds`: how long a reconcile spends queueing the users.
 */
export async function startPgBoss(
  database: Database,
  options: { reconcileJitterSeconds: number; noticeMailRetrySeconds: number; log: Logger },
): Promise<PgBoss> {
  const connection = database.queueConnection;
  const boss =
    connection.kind === 'pglite'
      ? new PgBoss({
          db: fromPglite(connection.client),
          backend: 'pglite',
          schema: 'pgboss',
          useListenNotify: true,
          ...LIVENESS,
        })
      : new PgBoss({
          connectionString: connection.url,
          schema: 'pgboss',
          max: QUEUE_POOL_SIZE,
          useListenNotify: true,
          ...LIVENESS,
        });
  boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  await boss.start();
  const userSyncRetries = {
    retryLimit: 8,
    retryDelay: 2,
    retryBackoff: true,
    // A user whose provider failed waits at most a minute for the next try: its pending retry is also
    // where new notifications fold in, so a long back-off would hold their changes back too.
    retryDelayMax: 60,
    expireInSeconds: 600,
    deleteAfterSeconds: 3600,
    heartbeatSeconds: SYNC_HEARTBEAT_SECONDS,
  };
  const notify = syncJobsNotify(database.kind);
  await boss.createQueue(USER_SYNC_QUEUE, { policy: 'short', notify, ...userSyncRetries });
  // A queue keeps the options it was made with: bring one made by an earlier version up to date.
  await boss.updateQueue(USER_SYNC_QUEUE, { ...userSyncRetries, notify });
  await moveLegacyUserJobs(boss);
  // The reconcile spends up to its jitter (10 minutes) spreading the users' runs: a worker killed meanwhile
  // stops its heartbeat, and the job is retried within seconds instead of holding the next reconcile
  // back until it expires.
  const reconcileLiveness = {
    retryLimit: 1,
    heartbeatSeconds: SYNC_HEARTBEAT_SECONDS,
    // Longer than the spread (two thirds of SYNC_RECONCILE_MINUTES), or a reconcile still queueing
    // users would expire.
    expireInSeconds: Math.max(900, options.reconcileJitterSeconds + 300),
  };
  await boss.createQueue(RECONCILE_QUEUE, { policy: 'stately', ...reconcileLiveness });
  await boss.updateQueue(RECONCILE_QUEUE, reconcileLiveness);
  await boss.createQueue(STRIPE_EVENT_QUEUE, {
    policy: 'short',
    notify: true,
    retryLimit: 10,
    retryDelay: 5,
    retryBackoff: true,
  });

  // A mail server that refuses (down, throttling) is tried again after NOTICE_MAIL_RETRY_SECONDS (5 s),
  // then less and less often (at most hourly), for about half a day before the mail is given up.
  const noticeMailRetries = {
    retryLimit: 20,
    retryDelay: options.noticeMailRetrySeconds,
    retryBackoff: true,
    retryDelayMax: 3600,
    deleteAfterSeconds: 7 * 86_400,
  };
  await boss.createQueue(NOTICE_MAIL_QUEUE, { policy: 'short', notify: true, ...noticeMailRetries });
  await boss.updateQueue(NOTICE_MAIL_QUEUE, noticeMailRetries);
  return boss;
}
