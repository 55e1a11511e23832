import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type DestinationStream, pino } from 'pino';
import { type RunningEmulators, startEmulators } from '#emulators/index.ts';
import { SYNC_PATHS } from '#shared/api/sync.schema.ts';
import { createIntegrationGateways, createSyncProviders } from './app-providers.ts';
import { createShutdown } from './app-shutdown.ts';
import { startWorkerRole } from './app-worker.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { applyMigrations } from './db/migrations.ts';
import type { IdentityProvider } from './domain/auth/identity-provider.port.ts';
import { createBillingService } from './domain/billing/billing.service.ts';
import { createStripeEventRepository } from './domain/billing/stripe-event.repository.ts';
import { createIntegrationRepository } from './domain/integrations/integration.repository.ts';
import { createIntegrationService } from './domain/integrations/integration.service.ts';
import { createTodoistLabelService } from './domain/integrations/todoist-label.service.ts';
import { createTokenCipher } from './domain/integrations/token-cipher.ts';
import { createTokenManager } from './domain/integrations/token-manager.ts';
import { createNoticeRepository } from './domain/notices/notice.repository.ts';
import { createNoticeService, type NoticeService } from './domain/notices/notice.service.ts';
import { rememberedSessions } from './domain/sessions/remembered-sessions.ts';
import { createSessionRepository } from './domain/sessions/session.repository.ts';
import { createSessionService } from './domain/sessions/session.service.ts';
import { createSettingsRepository } from './domain/settings/settings.repository.ts';
import { createSettingsService } from './domain/settings/settings.service.ts';
import type { Clock } from './domain/shared/clock.port.ts';
import { createAccountReader } from './domain/users/account.reader.ts';
import type { IdentityProviderName } from './domain/users/user.repository.ts';
import { createUserRepository } from './domain/users/user.repository.ts';
import { createUserService } from './domain/users/user.service.ts';
import { buildServer } from './http/server.ts';
import { type JobQueue, startJobQueue } from './jobs/job-queue.ts';
import { loggerOptions } from './logger.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { type MetricsServer, startMetricsServer } from './metrics/metrics-server.ts';
import { createOperationsReader } from './metrics/operations.reader.ts';
import { createFacebookIdentityProvider } from './providers/facebook/facebook-identity-provider.adapter.ts';
import { createGoogleIdentityProvider } from './providers/google-identity/google-identity-provider.adapter.ts';
import { parseGraphNotifications } from './providers/microsoft/microsoft-webhook.ts';
import { observeProviderCalls, providerOrigins } from './providers/shared/provider-calls.ts';
import { systemClock } from './providers/shared/system-clock.adapter.ts';
import { createSmtpMailer } from './providers/smtp/smtp-mailer.adapter.ts';
import { createStripeBillingGateway } from './providers/stripe/stripe-billing-gateway.adapter.ts';
import { createTodoistWebhookReader } from './providers/todoist/todoist-webhook.ts';
import { withEmulators } from './sandbox/emulated-config.ts';
import { createSandboxConsole } from './sandbox/sandbox-console.ts';
import type { SyncService } from './sync/sync.service.ts';
import { createSyncModule, type SyncModule } from './sync/sync-module.ts';
import type { WithToken } from './sync/with-token.ts';
import type { SyncRunReport } from './sync/worker.ts';

export type App = {
  server: FastifyInstance;
  database: Database;
  config: Config;
  emulators: RunningEmulators | null;
  sync: { service: SyncService; engine: SyncModule['engine']; queue: JobQueue };
  /** Notice mails: what a user is due (checked after runs and payment changes), and the sender. */
  notices: NoticeService;
  metrics: Metrics;
  /** `/metrics` on its own port (METRICS_PORT); null when none is configured. */
  metricsServer: MetricsServer | null;
  /** Call once listening: the origin providers reach us on (the configured URL may say port 0). */
  listening(origin: string): Promise<void>;
  close(): Promise<void>;
  /** What a `close()` in progress waits for now (a shutdown that overruns names it); null otherwise. */
  closingStep(): string | null;
};

/** web: HTTP only (jobs are queued for workers); worker: sync jobs only; all: both in one process. */
export type AppRole = 'web' | 'worker' | 'all';

export type AppOverrides = {
  role?: AppRole;
  clock?: Clock;
  identityProviders?: Partial<Record<IdentityProviderName, IdentityProvider>>;
  /** Told of every queued sync run as it ends (tests and the benchmark watch the worker with it). */
  onSyncRun?: (run: SyncRunReport) => void;
  /** Where log lines go instead of stdout (tests read them; JSON format only). */
  logDestination?: DestinationStream;
  /**
   * False: no reconcile every 15 minutes (the benchmark, whose per-change figures a reconcile reading
   * every user's both sides in the middle of a phase would blur; it measures the reconcile's runs apart).
   */
  scheduledReconcile?: boolean;
  /** Called once the embedded database's thread died (logged first); by default the process exits (1). */
  onDatabaseLost?: () => void;
};

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The composition root: the one place that picks concrete implementations. In sandbox mode it starts
 * the provider emulators and points the app at them.
 */
export async function createApp(baseConfig: Config, overrides: AppOverrides = {}): Promise<App> {
  const emulators = baseConfig.sandbox
    ? await startEmulators({
        host: 'localhost',
        webhookUrls: { stripe: `${baseConfig.appUrl}/api/webhooks/stripe` },
        defaultTimeZone: baseConfig.sandboxTimeZone ?? undefined,
        todoistWebhookRetrySeconds: baseConfig.sandboxTodoistWebhookRetrySeconds,
      })
    : null;
  const config = emulators ? withEmulators(baseConfig, emulators) : baseConfig;

  const logger = overrides.logDestination
    ? pino(loggerOptions(config.logLevel, 'json'), overrides.logDestination)
    : pino(loggerOptions(config.logLevel, config.logFormat));
  const database = await openDatabase(
    config.database,
    (error) => logger.warn({ err: error }, 'database connection lost; the pool will reconnect'),
    (error) => {
      // The embedded database's thread is gone: nothing can be read or written any more.
      logger.fatal({ err: error }, 'the embedded database stopped; exiting');
      (overrides.onDatabaseLost ?? (() => process.exit(1)))();
    },
  );
  try {
    await applyMigrations(database);
  } catch (error) {
    await database.close();
    await emulators?.close();
    throw error;
  }
  const clock = overrides.clock ?? systemClock;
  const userRepository = createUserRepository(database.db);
  const gateways = createIntegrationGateways(config, clock);
  const integrationRows = createIntegrationRepository(database.db);
  const tokenCipher = createTokenCipher(config.tokenKeys);
  const tokens = createTokenManager({
    integrations: integrationRows,
    cipher: tokenCipher,
    refreshers: Object.fromEntries(
      Object.entries(gateways).flatMap(([provider, gateway]) =>
        gateway ? [[provider, gateway.refresh]] : [],
      ),
    ),
    clock,
  });
  const settingsRepository = createSettingsRepository(database.db);
  const integrationLog = logger.child({ area: 'integrations' });
  // The sync module, made below, stops the channels; the integrations call it through this binding.
  let stopSyncChannels = async (_userId: string): Promise<void> => undefined;
  const integrations = createIntegrationService({
    tokens,
    settings: settingsRepository,
    users: userRepository,
    accounts: integrationRows,
    gateways,
    stopChannels: (userId) => stopSyncChannels(userId),
    clock,
    log: integrationLog,
  });
  const todoistLabels = createTodoistLabelService({
    tokens,
    settings: settingsRepository,
    todoist: gateways.todoist,
    clock,
    log: integrationLog,
  });
  const role = overrides.role ?? 'all';
  const syncLog = logger.child({ area: 'sync' });
  const withToken: WithToken = (userId, kind, work) => tokens.withAccessToken(userId, kind, work);
  const { calendarTargets, tasks } = createSyncProviders(config, clock);
  let publicOrigin = config.appUrl;
  const metrics = createMetrics({
    // The gauges read when scraped, after the queue (below) has started.
    operations: createOperationsReader({
      db: database.db,
      jobs: { waiting: () => jobs.waiting(), syncLanes: () => jobs.syncLanes() },
      clock,
    }),
    log: logger.child({ area: 'metrics' }),
  });
  const stopObservingProviders = observeProviderCalls(providerOrigins(config), (call) =>
    metrics.providerCall(call.provider, call.status),
  );
  const jobs = await startJobQueue(database, {
    reconcileCron:
      overrides.scheduledReconcile === false || config.syncReconcileMinutes === 0
        ? null
        : `*/${config.syncReconcileMinutes} * * * *`,
    // Two thirds of the period: an even load whatever the number of users, and every user read again
    // well within the period.
    reconcileJitterSeconds: config.syncReconcileMinutes * 40,
    noticeMailRetrySeconds: config.noticeMailRetrySeconds,
    pollingIntervalSeconds: 0.5,
    // Runs wait on providers and hold a connection only per statement: PostgreSQL's pool serves many
    // at once; the embedded database runs one statement at a time, so more would only queue there.
    maxSyncRuns: config.syncMaxRunsPerWorker ?? (database.kind === 'postgres' ? 64 : 16),
    // The event loop says what the CPU allows only where it runs nothing but sync runs: in a process
    // that also answers the web app it is busy with that, and bounding the runs by it held changes back
    // (docs/decisions/024); the embedded database's own thread (decision 026) is not seen by it at all.
    lanesBoundByLoop: role === 'worker' && database.kind === 'postgres',
    log: syncLog,
  });
  const syncModule = createSyncModule({
    database,
    labels: settingsRepository,
    tasks,
    calendars: calendarTargets,
    withToken,
    withAccountToken: (userId, accountId, work) => tokens.withAccountToken(userId, accountId, work),
    tokenScope: { run: (work) => tokens.inScope(work), known: (rows) => tokens.known(rows) },
    queue: jobs,
    readTodoistWebhook: createTodoistWebhookReader(config.todoist?.clientSecret ?? null),
    parseGraphNotifications,
    publicOrigin: () => publicOrigin,
    onChannelRenewal: (provider, outcome) => metrics.channelRenewal(provider, outcome),
    onAppBudgetShort: (provider) => metrics.appBudgetShort(provider),
    brake: config.syncBrake,
    googleRequestsPerMinute: config.googleCalendarRequestsPerMinute,
    clock,
    log: syncLog,
  });
  const sync = syncModule.service;
  // Before a grant goes, the channels it holds are stopped while it still works (a failure is logged:
  // the grant goes all the same, and the provider lets an unrenewed channel lapse).
  const stopChannelsFirst = (userId: string) =>
    sync
      .stopChannels(userId)
      .catch((error: unknown) => syncLog.warn({ err: error }, 'stopping channels failed'));
  // Removing the sync's calendar account or syncing with another stops the channel once sync is off.
  stopSyncChannels = stopChannelsFirst;
  const settingsService = createSettingsService({
    settings: settingsRepository,
    users: userRepository,
    syncs: sync,
    clock,
  });

  // Embedded, this process makes every write to the sessions table: a signed-in request reads its
  // session from memory (decision 003, addendum). On a server other processes sign users out.
  const storedSessions = createSessionRepository(database.db);
  const remembered = database.kind === 'pglite' ? rememberedSessions(storedSessions) : null;
  const sessionRows = remembered ?? storedSessions;
  const users = createUserService({
    users: userRepository,
    clock,
    forgetSessions: (userId) => remembered?.forgetUser(userId),
    revokeGrants: async (userId) => {
      await stopChannelsFirst(userId);
      await integrations.revokeAll(userId);
    },
  });
  const billing = createBillingService({
    users: userRepository,
    events: createStripeEventRepository(database.db),
    gateway: config.stripe ? createStripeBillingGateway(config.stripe) : null,
    appUrl: config.appUrl,
    clock,
  });
  const mailer = config.mail.smtpUrl
    ? createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from })
    : null;
  if (!mailer) logger.warn('SMTP_URL is not set: no notice mails are sent');
  const noticeLog = logger.child({ area: 'notices' });
  const notices = createNoticeService({
    notices: createNoticeRepository(database.db),
    users: userRepository,
    queue: jobs,
    mailer,
    appUrl: config.appUrl,
    secret: config.sessionSecret,
    clock,
    log: noticeLog,
  });
  if (role !== 'web') {
    await startWorkerRole({
      jobs,
      sync: syncModule,
      metrics,
      notices,
      billing,
      integrations: integrationRows,
      tokenCipher,
      ...(overrides.onSyncRun && { onSyncRun: overrides.onSyncRun }),
      clock,
      logger,
      syncLog,
      noticeLog,
    });
  }
  const sessions = createSessionService({ sessions: sessionRows, clock });
  const identityProviders = overrides.identityProviders ?? {
    ...(config.google && { google: createGoogleIdentityProvider(config.google) }),
    ...(config.facebook && { facebook: createFacebookIdentityProvider(config.facebook) }),
  };

  const server = await buildServer({
    config,
    logger,
    database,
    users,
    accounts: createAccountReader(database.db),
    settings: settingsService,
    sync,
    syncPreview: syncModule.preview,
    activityNames: syncModule.names,
    notices,
    jobs,
    metrics,
    sessions,
    billing,
    integrations,
    todoistLabels,
    paymentOrigins: config.stripe?.redirectOrigins ?? [],
    identityProviders,
    sandbox: emulators
      ? createSandboxConsole(
          {
            todoistOrigin: emulators.todoist.origin,
            googleCalendarOrigin: emulators.googleCalendar.origin,
            microsoft: emulators.microsoft,
            mailOrigin: emulators.mail.origin,
          },
          clock,
        )
      : null,
    webRoot: `${projectRoot}dist/web`,
    contentRoot: `${projectRoot}content`,
  });
  const metricsServer = config.metrics ? await startMetricsServer(metrics, config.metrics, logger) : null;

  const shutdown = createShutdown([
    { name: 'the web server (requests in flight)', close: () => server.close() },
    { name: 'the metrics server', close: () => metricsServer?.close() },
    stopObservingProviders,
    { name: 'the job queue (jobs in flight)', close: () => jobs.stop() },
    () => mailer?.close(),
    { name: 'the database pools (statements in flight)', close: () => database.close() },
    { name: 'the emulators', close: () => emulators?.close() },
  ]);
  return {
    server,
    database,
    config,
    emulators,
    sync: { service: sync, engine: syncModule.engine, queue: jobs },
    notices,
    metrics,
    metricsServer,
    async listening(origin) {
      publicOrigin = origin.replace(/\/$/, '');
      await emulators?.setWebhookUrls({
        todoist: `${publicOrigin}${SYNC_PATHS.todoistWebhook}`,
        stripe: `${publicOrigin}/api/webhooks/stripe`,
      });
    },
    close: shutdown.close,
    closingStep: shutdown.closingStep,
  };
}
