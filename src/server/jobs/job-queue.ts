import { fromPglite, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '#server/db/client.ts';
import { type LoopLoad, watchLoopLoad } from './loop-load.ts';
import { type SyncLanes, startSyncLanes } from './sync-lanes.ts';

/**
 * The app's background work, in the app's own database: user sync runs, the periodic reconcile that
 * visits every active user, and Stripe events (verified by the web process, applied by a worker).
 */
export const USER_SYNC_QUEUE = 'user-runs';
/** The user queue before decision 018 (stately policy): its waiting users move to `USER_SYNC_QUEUE`. */
const LEGACY_USER_SYNC_QUEUE = 'user-sync';
export const RECONCILE_QUEUE = 'sync-reconcile';
export const STRIPE_EVENT_QUEUE = 'stripe-event';
export const NOTICE_MAIL_QUEUE = 'notice-mail';

/**
 * A worker that dies mid-run (killed, out of memory, machine gone) stops sending heartbeats; its job
 * is then failed and retried by any live process within about heartbeat + supervise interval, instead
 * of holding the user's one running slot until `expireInSeconds`.
 */
const SYNC_HEARTBEAT_SECONDS = 10;
/**
 * Sync runs one process works at once: at least four lanes, more while none is starved for work (up
 * to the `maxSyncRuns` option), two starved ones kept beside the others (sync-lanes.ts). Each lane
 * fetches its next job as soon as a run ends.
 */
const MIN_SYNC_LANES = 4;
const SPARE_SYNC_LANES = 2;
/**
 * The event loop's busy share below which another lane may open, and above which lanes close as runs
 * end: between the two the lanes hold, so their number settles instead of swinging.
 */
const LANES_OPEN_BELOW_LOAD = 0.7;
const LANES_CLOSE_ABOVE_LOAD = 0.9;
/**
 * Statements waiting for a connection, per connection of the pool, up to which another lane may open:
 * a statement waiting behind one other per connection costs a millisecond or two against runs of
 * hundreds; deeper, the pool is what limits runs, and more of them at once only queue there.
 */
const LANES_OPEN_WHILE_WAITING_PER_CONNECTION = 1;
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
 * What queued a user's run (for the metrics): a notification or the user's own action, the reconcile,
 * or a run again after a failure or a provider's "wait" (a reconcile visit held back stays the
 * reconcile's). A request folds into a waiting job, which keeps its reason, but a reconcile job a
 * change folds into becomes the change's.
 */
export const SYNC_TRIGGERS = ['change', 'reconcile', 'retry'] as const;
export type SyncTrigger = (typeof SYNC_TRIGGERS)[number];

/** Per queue: jobs waiting (deferred ones too), and how long the oldest one due has waited. */
export type QueueWaiting = { queue: string; depth: number; oldestWaitingSeconds: number };

const userSyncJob = z.object({ userId: z.uuid(), trigger: z.enum(SYNC_TRIGGERS).optional() });
const reconcileJob = z.object({ jitterSeconds: z.number().int().min(0).default(0) });
const stripeEventJob = z.object({
  id: z.string().min(1),
  type: z.string(),
  customerId: z.string().nullable(),
  clientReferenceId: z.string().nullable(),
});
export type StripeEventJob = z.infer<typeof stripeEventJob>;
const noticeMailJob = z.object({
  userId: z.uuid(),
  kind: z.string().min(1),
  occurrence: z.iso.datetime({ offset: true }),
  resolved: z.boolean(),
});
/** One notice mail to send (its words are made when it is sent, from the user as they are then). */
export type NoticeMailJob = z.infer<typeof noticeMailJob>;

export type JobQueue = {
  /**
   * Asks for a sync of these users soon, in one statement; a request for a user whose run is already
   * waiting folds into that run.
   */
  requestSyncs(userIds: readonly string[]): Promise<void>;
  /** Queues a verified Stripe event; the same event queued twice while waiting is one job. */
  requestStripeEvent(event: StripeEventJob): Promise<void>;
  /**
   * Queues a notice mail; the same mail (user, kind, occurrence, start or end) queued twice while it
   * waits is one job. Sent with retries, so a mail server that is down loses nothing.
   */
  requestNoticeMail(mail: NoticeMailJob): Promise<void>;
  /** Starts taking jobs in this process (the worker role). */
  work(handlers: {
    /** `failedBefore`: how often this job's runs failed before (its retries so far). */
    sync(userId: string, trigger: SyncTrigger, failedBefore: number): Promise<{ retryAfterMs?: number }>;
    reconcile(): Promise<string[]>;
    stripeEvent(event: StripeEventJob): Promise<void>;
    noticeMail(mail: NoticeMailJob): Promise<void>;
  }): Promise<void>;
  /** Queues every active user now, not behind the scheduled reconcile (in a process that works the queue). */
  reconcileNow(): Promise<void>;
  /**
   * Sync lanes open in this process and runs in flight now (none before `work`), and how busy its
   * event loop is (0–1).
   */
  syncLanes(): { open: number; busy: number; loopLoad: number };
  /** Every queue's waiting jobs, read when metrics are scraped. */
  waiting(): Promise<QueueWaiting[]>;
  stop(): Promise<void>;
};

export type JobQueueOptions = {
  /** Cron of the reconcile (every 15 minutes in the app); null: none (a schedule stored earlier is removed). */
  reconcileCron: string | null;
  /**
   * How long a reconcile takes to queue every active user, one after another: the runs spread over
   * this much of the reconcile's period whatever the number of users, so providers and the database
   * see an even load, not a wave.
   */
  reconcileJitterSeconds: number;
  pollingIntervalSeconds: number;
  /** The most sync runs this process keeps in flight (at least 4). */
  maxSyncRuns: number;
  /**
   * Whether lanes stop opening while the event loop is busy (decision 024): in a process that only
   * works the queue on PostgreSQL. Elsewhere the lanes follow the backlog alone.
   */
  lanesBoundByLoop?: boolean;
  /** How busy the process's event loop is (0–1); default: measured (loop-load.ts). Tests set it. */
  loopLoad?: () => number;
  log: Logger;
};

/**
 * pg-boss on the app's database (PGlite embedded or PostgreSQL). A user's sync jobs (decision 018): the
 * `short` policy with the user id as singleton key keeps one waiting job per user, so a burst of
 * notifications becomes one run; the user id as the job's group, worked with a group concurrency of
 * one, starts no job of a user while another is active, judged from the job table at each fetch (the
 * `stately` policy judged it from statistics up to two seconds old, and held a user's next change
 * back that long after their last run); the run lease (sync/run/run-lease.ts) makes it a guarantee.
 */
/**
 * Live changes before routine work: a run a user's change asked for (a notification, a setting, the
 * switch), or such a run a provider asked us to run later, is fetched before any reconcile run waiting,
 * so a reconcile wave never holds a live change back.
 */
const LIVE_PRIORITY = 10;

/** A user's sync job: one waiting per user (singleton key), none started while another runs (group). */
function userJob(userId: string, trigger?: SyncTrigger) {
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
  select singleton_key as "userId" from waiting`;

/** Users waiting in the queue an earlier version used get a job in this one; that queue goes. */
async function moveLegacyUserJobs(boss: PgBoss) {
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

export async function startJobQueue(database: Database, options: JobQueueOptions): Promise<JobQueue> {
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
  await boss.createQueue(USER_SYNC_QUEUE, { policy: 'short', notify: true, ...userSyncRetries });
  // A queue keeps the options it was made with: bring one made by an earlier version up to date.
  await boss.updateQueue(USER_SYNC_QUEUE, userSyncRetries);
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

  // A mail server that refuses (down, throttling) is tried again after 5 s, then less and less often
  // (at most hourly), for about half a day before the mail is given up.
  const noticeMailRetries = {
    retryLimit: 20,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 3600,
    deleteAfterSeconds: 7 * 86_400,
  };
  await boss.createQueue(NOTICE_MAIL_QUEUE, { policy: 'short', notify: true, ...noticeMailRetries });

  let listActiveUsers: () => Promise<string[]> = async () => [];
  let lanes: SyncLanes | null = null;
  let loopLoad: LoopLoad | null = null;

  return {
    async requestStripeEvent(event) {
      await boss.send(STRIPE_EVENT_QUEUE, event, { singletonKey: event.id });
    },

    async requestNoticeMail(mail) {
      const key = `${mail.userId}:${mail.kind}:${mail.occurrence}:${mail.resolved ? 'end' : 'start'}`;
      await boss.send(NOTICE_MAIL_QUEUE, mail, { singletonKey: key });
    },

    async requestSyncs(userIds) {
      const unique = [...new Set(userIds)];
      if (unique.length === 0) return;
      // A user's waiting run (the queue keeps one) takes the request: a reconcile run becomes the live
      // change's, fetched as one. Only users without one get a job, so a user who changes things while
      // their run waits costs one statement per request, not two.
      const { rows } = await database.notificationSql.executeSql(raiseWaiting, [
        LIVE_PRIORITY,
        USER_SYNC_QUEUE,
        unique,
      ]);
      const waiting = new Set((rows as { userId: string }[]).map((row) => row.userId));
      const missing = unique.filter((userId) => !waiting.has(userId));
      if (missing.length === 0) return;
      const inserted = await boss.insert(
        USER_SYNC_QUEUE,
        missing.map((userId) => userJob(userId)),
        { db: database.notificationSql, returnId: true },
      );
      // A job queued for one of them in between (a reconcile's) was skipped by the insert: raise it too.
      if ((inserted?.length ?? 0) < missing.length)
        await database.notificationSql.executeSql(raiseWaiting, [LIVE_PRIORITY, USER_SYNC_QUEUE, missing]);
    },

    async work(handlers) {
      listActiveUsers = handlers.reconcile;
      if (!options.loopLoad) loopLoad = watchLoopLoad();
      const bounded = options.lanesBoundByLoop ?? options.loopLoad !== undefined;
      lanes = await startSyncLanes(
        boss,
        {
          queue: USER_SYNC_QUEUE,
          min: MIN_SYNC_LANES,
          max: Math.max(MIN_SYNC_LANES, options.maxSyncRuns),
          spare: SPARE_SYNC_LANES,
          pollingIntervalSeconds: options.pollingIntervalSeconds,
          onOpenFailed: (error) => options.log.warn({ err: error }, 'could not open another sync lane'),
          loopLoad: options.loopLoad ?? (() => loopLoad?.utilization() ?? 0),
          // Unbounded: a load of 1 never stops a lane from opening, nor closes one.
          openBelow: bounded ? LANES_OPEN_BELOW_LOAD : Number.POSITIVE_INFINITY,
          closeAbove: bounded ? LANES_CLOSE_ABOVE_LOAD : Number.POSITIVE_INFINITY,
          connectionsWaiting: database.connections.waiting,
          openWhileWaiting: database.connections.size * LANES_OPEN_WHILE_WAITING_PER_CONNECTION,
        },
        async (job) => {
          const { userId, trigger } = userSyncJob.parse(job.data);
          const reason = job.retryCount > 0 ? 'retry' : (trigger ?? 'change');
          const outcome = await handlers.sync(userId, reason, job.retryCount).catch((error: unknown) => {
            // pg-boss retries the job with back-off; say so, or a failing user fails silently.
            options.log.warn({ userId, err: error, retry: job.retryCount }, 'sync run failed');
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
        },
      );
      // The visits are spread over the jitter window by sending them one after another, never by
      // delaying the jobs: a delayed job would hold the user's one waiting slot, and a notification
      // arriving meanwhile would fold into it and wait too.
      await boss.work(RECONCILE_QUEUE, async ([job]) => {
        const { jitterSeconds } = reconcileJob.parse(job?.data ?? {});
        const users = shuffled(await handlers.reconcile());
        const { size, gapMs } = reconcileBatches(users.length, jitterSeconds * 1000);
        for (let from = 0; from < users.length; from += size) {
          const batch = users.slice(from, from + size).map((userId) => userJob(userId, 'reconcile'));
          await boss.insert(USER_SYNC_QUEUE, batch);
          if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
        }
      });
      // Events come in bursts (one change, several events); applying one twice is harmless, so a
      // batch that fails is simply retried whole.
      await boss.work(
        STRIPE_EVENT_QUEUE,
        {
          pollingIntervalSeconds: options.pollingIntervalSeconds,
          notifyPollingIntervalSeconds: options.pollingIntervalSeconds,
          batchSize: 20,
        },
        async (batch) => {
          for (const job of batch) await handlers.stripeEvent(stripeEventJob.parse(job.data));
        },
      );
      await boss.work(
        NOTICE_MAIL_QUEUE,
        {
          pollingIntervalSeconds: options.pollingIntervalSeconds,
          notifyPollingIntervalSeconds: options.pollingIntervalSeconds,
          batchSize: 1,
        },
        async ([job]) => {
          if (!job) return;
          await handlers.noticeMail(noticeMailJob.parse(job.data)).catch((error: unknown) => {
            options.log.warn(
              { err: error, retry: job.retryCount },
              'notice mail not sent; tried again later',
            );
            throw error;
          });
        },
      );
      if (options.reconcileCron === null) await boss.unschedule(RECONCILE_QUEUE);
      else {
        await boss.schedule(RECONCILE_QUEUE, options.reconcileCron, {
          jitterSeconds: options.reconcileJitterSeconds,
        });
      }
    },

    syncLanes: () => ({
      open: lanes?.open() ?? 0,
      busy: lanes?.busy() ?? 0,
      loopLoad: options.loopLoad?.() ?? loopLoad?.utilization() ?? 0,
    }),

    async reconcileNow() {
      for (const userId of await listActiveUsers()) {
        await boss.insert(USER_SYNC_QUEUE, [userJob(userId, 'reconcile')]);
      }
    },

    async waiting() {
      // Deferred jobs count as waiting; only jobs already due age (a retry waits its back-off unaged).
      const { rows } = await boss.getDb().executeSql(
        `select q.name as queue, count(j.id)::int as depth,
                coalesce(extract(epoch from now() - min(j.start_after) filter (where j.start_after <= now())), 0)::float8 as oldest
           from pgboss.queue q
           left join pgboss.job j on j.name = q.name and j.state in ('created', 'retry')
          where q.name not like '\\_\\_pgboss\\_\\_%'
          group by q.name`,
      );
      return (rows as { queue: string; depth: number; oldest: number }[]).map((row) => ({
        queue: row.queue,
        depth: Number(row.depth),
        oldestWaitingSeconds: Number(row.oldest),
      }));
    },

    async stop() {
      loopLoad?.stop();
      lanes?.stop();
      await boss.stop({ graceful: true, timeout: 5000 });
    },
  };
}

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

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}
