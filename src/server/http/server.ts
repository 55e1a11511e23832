import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { answeringRequest } from '#server/db/statement-priority.ts';
import type { IdentityProvider } from '#server/domain/auth/identity-provider.port.ts';
import type { BillingService } from '#server/domain/billing/billing.service.ts';
import type { IntegrationService } from '#server/domain/integrations/integration.service.ts';
import type { TodoistLabelService } from '#server/domain/integrations/todoist-label.service.ts';
import type { NoticeService } from '#server/domain/notices/notice.service.ts';
import type { SessionService } from '#server/domain/sessions/session.service.ts';
import type { SettingsService } from '#server/domain/settings/settings.service.ts';
import type { AccountReader } from '#server/domain/users/account.reader.ts';
import type { IdentityProviderName } from '#server/domain/users/user.repository.ts';
import type { UserService } from '#server/domain/users/user.service.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import type { Metrics } from '#server/metrics/metrics.ts';
import type { SandboxConsole } from '#server/sandbox/sandbox-console.ts';
import type { ActivityNamesReader } from '#server/sync/inbound/activity-names.ts';
import type { SyncPreviewService } from '#server/sync/inbound/sync-preview.ts';
import type { SyncService } from '#server/sync/sync.service.ts';
import { createCookiePolicy } from './cookies.ts';
import { csrfPlugin } from './plugins/csrf.plugin.ts';
import { errorsPlugin } from './plugins/errors.plugin.ts';
import { metricsPlugin } from './plugins/metrics.plugin.ts';
import { sessionPlugin } from './plugins/session.plugin.ts';
import { storableInputPlugin } from './plugins/storable-input.plugin.ts';
import { webAppPlugin } from './plugins/web-app.plugin.ts';
import { authRoutes } from './routes/auth.routes.ts';
import { configRoutes } from './routes/config.routes.ts';
import { healthRoutes } from './routes/health.routes.ts';
import { integrationAuthRoutes } from './routes/integration-auth.routes.ts';
import { integrationsRoutes } from './routes/integrations.routes.ts';
import { noticesRoutes } from './routes/notices.routes.ts';
import { paymentRoutes } from './routes/payment.routes.ts';
import { sandboxRoutes } from './routes/sandbox.routes.ts';
import { settingsRoutes } from './routes/settings.routes.ts';
import { stripeWebhookRoutes } from './routes/stripe-webhook.routes.ts';
import { syncRoutes } from './routes/sync.routes.ts';
import { userRoutes } from './routes/user.routes.ts';

export type ServerDeps = {
  config: Config;
  logger: FastifyBaseLogger;
  database: Database;
  users: UserService;
  accounts: AccountReader;
  settings: SettingsService;
  sessions: SessionService;
  billing: BillingService;
  integrations: IntegrationService;
  todoistLabels: TodoistLabelService;
  sync: SyncService;
  syncPreview: SyncPreviewService;
  /** The names the sync activity and the brake show, read live. */
  activityNames: ActivityNamesReader;
  notices: NoticeService;
  jobs: JobQueue;
  metrics: Metrics;
  /** Origins our payment forms redirect to (Stripe Checkout and portal, or the emulator). */
  paymentOrigins: string[];
  identityProviders: Partial<Record<IdentityProviderName, IdentityProvider>>;
  /** Present only in sandbox mode. */
  sandbox: SandboxConsole | null;
  webRoot: string;
  contentRoot: string;
};

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const production = config.env === 'production';
  // The configured third-party scripts (after consent) are the only other origins a page may use.
  const thirdParty = [config.analyticsScriptUrl, config.chatWidgetScriptUrl].flatMap((url) =>
    url ? [new URL(url).origin] : [],
  );
  // A hop count trusts the nearest proxies only (the right of X-Forwarded-For), whoever wrote the left.
  const hops = config.trustProxy;
  const trustProxy = typeof hops === 'number' ? (_address: string, hop: number) => hop < hops : hops;
  const app = Fastify({ loggerInstance: deps.logger, trustProxy });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Someone waits for every request's statements: embedded, they go before the sync's waiting ones.
  app.addHook('onRequest', (_request, _reply, done) => answeringRequest(done));

  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { metrics: deps.metrics, serveOnAppPort: config.sandbox });
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...thirdParty],
        // Mantine sets styles at run time; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', ...thirdParty],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...thirdParty],
        frameSrc: thirdParty.length > 0 ? thirdParty : ["'none'"],
        // Chrome applies form-action to the redirect after a form post, so the payment pages are listed.
        formAction: ["'self'", ...deps.paymentOrigins],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: production ? [] : null,
      },
    },
    hsts: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie, { secret: config.sessionSecret });
  await app.register(fastifyFormbody);
  await app.register(fastifyRateLimit, { global: false });
  await app.register(csrfPlugin, { appOrigin: new URL(config.appUrl).origin });
  await app.register(storableInputPlugin);

  const cookies = createCookiePolicy(config.appUrl);
  await app.register(sessionPlugin, { sessions: deps.sessions, cookies });

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url.startsWith('/auth/')) {
      reply.header('cache-control', 'no-store');
    }
  });

  await app.register(healthRoutes, { database: deps.database });
  await app.register(configRoutes, {
    publicConfig: {
      supportEmail: config.supportEmail,
      sandbox: config.sandbox,
      analyticsScriptUrl: config.analyticsScriptUrl,
      chatWidgetScriptUrl: config.chatWidgetScriptUrl,
    },
  });
  await app.register(authRoutes, {
    appUrl: config.appUrl,
    cookies,
    users: deps.users,
    identityProviders: deps.identityProviders,
    rateLimitPerMinute: config.authRateLimitPerMinute,
  });
  await app.register(userRoutes, { users: deps.users, accounts: deps.accounts });
  await app.register(settingsRoutes, { settings: deps.settings, accounts: deps.accounts });
  await app.register(paymentRoutes, { billing: deps.billing, accounts: deps.accounts });
  await app.register(integrationAuthRoutes, {
    appUrl: config.appUrl,
    cookies,
    integrations: deps.integrations,
    accounts: deps.accounts,
    rateLimitPerMinute: config.authRateLimitPerMinute,
  });
  await app.register(integrationsRoutes, {
    integrations: deps.integrations,
    labels: deps.todoistLabels,
    accounts: deps.accounts,
  });
  await app.register(stripeWebhookRoutes, { billing: deps.billing, jobs: deps.jobs });
  await app.register(syncRoutes, {
    sync: deps.sync,
    preview: deps.syncPreview,
    names: deps.activityNames,
  });
  await app.register(noticesRoutes, { notices: deps.notices });
  if (deps.sandbox) await app.register(sandboxRoutes, { sandbox: deps.sandbox, accounts: deps.accounts });
  await app.register(webAppPlugin, { webRoot: deps.webRoot, contentRoot: deps.contentRoot });
  return app;
}
