import type { Logger } from 'pino';
import type { Database } from '#server/db/client.ts';
import { type LoopLoad, watchLoopLoad } from './loop-load.ts';
import { startPgBoss, syncJobsNotify } from './pg-boss-queues.ts';
import {
  NOTICE_MAIL_QUEUE,
  type NoticeMailJob,
  noticeMailJob,
  RECONCILE_QUEUE,
  reconcileJob,
  STRIPE_EVENT_QUEUE,
  type StripeEventJob,
  type SyncTrigger,
  stripeEventJob,
  USER_SYNC_QUEUE,
} from './queue-jobs.ts';
import { type QueueWaiting, readQueueWaiting } from './queue-waiting.ts';
import { queueReconcileVisits } from './reconcile-batches.ts';
import { syncLaneOptions } from './sync-lane-options.ts';
import { type SyncLanes, startSyncLanes } from './sync-lanes.ts';
import { requestUserSyncs, userJob, userSyncJobRunner } from './user-sync-jobs.ts';

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
  /** The first wait before a refused notice mail is tried again (doubled at each try, at most an hour). */
  noticeMailRetrySeconds: number;
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

/** The app's job queue: pg-boss on the app's database (pg-boss-queues.ts), its queues in queue-jobs.ts. */
export async function startJobQueue(database: Database, options: JobQueueOptions): Promise<JobQueue> {
  const boss = await startPgBoss(database, options);

  let listActiveUsers: () => Promise<string[]> = async () => [];
  let lanes: SyncLanes | null = null;
  let loopLoad: LoopLoad | null = null;
  /** Jobs were queued for users' syncs: where NOTIFY does not wake the lanes, as many are woken here. */
  const queuedSyncJobs = syncJobsNotify(database.kind) ? () => {} : (count: number) => lanes?.wake(count);

  return {
    async requestStripeEvent(event) {
      await boss.send(STRIPE_EVENT_QUEUE, event, { singletonKey: event.id });
    },

    async requestNoticeMail(mail) {
      const key = `${mail.userId}:${mail.kind}:${mail.occurrence}:${mail.resolved ? 'end' : 'start'}`;
      await boss.send(NOTICE_MAIL_QUEUE, mail, { singletonKey: key });
    },

    async requestSyncs(userIds) {
      queuedSyncJobs(await requestUserSyncs(boss, database, userIds));
    },

    async work(handlers) {
      listActiveUsers = handlers.reconcile;
      if (!options.loopLoad) loopLoad = watchLoopLoad();
      lanes = await startSyncLanes(
        boss,
        syncLaneOptions(
          {
            maxSyncRuns: options.maxSyncRuns,
            pollingIntervalSeconds: options.pollingIntervalSeconds,
            bounded: options.lanesBoundByLoop ?? options.loopLoad !== undefined,
            loopLoad: options.loopLoad ?? (() => loopLoad?.utilization() ?? 0),
            log: options.log,
          },
          database,
        ),
        userSyncJobRunner(boss, handlers, options.log),
      );
      await boss.work(RECONCILE_QUEUE, async ([job]) => {
        const { jitterSeconds } = reconcileJob.parse(job?.data ?? {});
        await queueReconcileVisits(boss, await handlers.reconcile(), jitterSeconds, queuedSyncJobs);
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
        queuedSyncJobs(1);
      }
    },

    waiting: () => readQueueWaiting(boss),

    async stop() {
      loopLoad?.stop();
      lanes?.stop();
      await boss.stop({ graceful: true, timeout: 5000 });
    },
  };
}
