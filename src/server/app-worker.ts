import type { Logger } from 'pino';
import type { BillingService } from './domain/billing/billing.service.ts';
import type { IntegrationRepository } from './domain/integrations/integration.repository.ts';
import type { TokenCipher } from './domain/integrations/token-cipher.ts';
import { reencryptTokens } from './domain/integrations/token-rotation.ts';
import type { NoticeService } from './domain/notices/notice.service.ts';
import type { Clock } from './domain/shared/clock.port.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import { countMail } from './metrics/mail-metrics.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { SyncModule } from './sync/sync-module.ts';
import { createSyncWorker, type SyncRunReport } from './sync/worker.ts';

export type WorkerRoleDeps = {
  jobs: JobQueue;
  sync: SyncModule;
  metrics: Metrics;
  notices: NoticeService;
  billing: BillingService;
  integrations: IntegrationRepository;
  tokenCipher: TokenCipher;
  /** Told of every queued sync run as it ends. */
  onSyncRun?: (run: SyncRunReport) => void;
  clock: Clock;
  logger: Logger;
  syncLog: Logger;
  noticeLog: Logger;
};

/**
 * Part of the composition root (app.ts): the worker role, which takes this process's share of the
 * queue's jobs (sync runs, the reconcile, Stripe events, notice mails) and re-encrypts stored tokens.
 */
export async function startWorkerRole(deps: WorkerRoleDeps): Promise<void> {
  const { logger, noticeLog, notices } = deps;
  /** After what may start or end a notice; never holds up the work that called it. */
  const checkNotices = (userId: string) => {
    void notices
      .check(userId)
      .catch((error: unknown) => noticeLog.warn({ userId, err: error }, 'notice check failed'));
  };
  // A key put first in TOKEN_ENCRYPTION_KEYS: every worker moves the stored tokens to it (safe side by
  // side: a row changed meanwhile is skipped), so the older key can be removed (docs/operations.md).
  void reencryptTokens({
    integrations: deps.integrations,
    cipher: deps.tokenCipher,
    log: logger.child({ area: 'key-rotation' }),
  }).catch((error: unknown) => logger.warn({ err: error }, 'token re-encryption stopped'));
  await deps.jobs.work({
    ...createSyncWorker({
      sync: deps.sync,
      metrics: deps.metrics,
      afterRun: checkNotices,
      onReconcile: () =>
        void notices
          .checkAll()
          .catch((error: unknown) => noticeLog.warn({ err: error }, 'notice sweep failed')),
      ...(deps.onSyncRun && { onSyncRun: deps.onSyncRun }),
      clock: deps.clock,
      log: deps.syncLog,
    }),
    stripeEvent: async (event) => {
      const { outcome, userId } = await deps.billing.applyWebhook(event);
      logger.info({ eventId: event.id, outcome }, 'stripe event applied');
      // Paid again (or no longer): the user's sync resumes, or its next run stops it.
      if (userId) {
        await deps.sync.service.request(userId);
        checkNotices(userId);
      }
    },
    noticeMail: async (mail) => {
      const outcome = await notices.send(mail).catch((error: unknown) => {
        countMail('failed');
        throw error;
      });
      if (outcome === 'sent') countMail('sent');
    },
  });
}
