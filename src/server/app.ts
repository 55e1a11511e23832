import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { type RunningEmulators, startEmulators } from '#emulators/index.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { applyMigrations } from './db/migrations.ts';
import type { IdentityProvider } from './domain/auth/identity-provider.ts';
import { createBillingService } from './domain/billing/billing.service.ts';
import { createStripeEventRepository } from './domain/billing/stripe-event.repository.ts';
import { createIntegrationRepository } from './domain/integrations/integration.repository.ts';
import { createIntegrationService } from './domain/integrations/integration.service.ts';
import { createIntegrationSettingsRepository } from './domain/integrations/integration-settings.repository.ts';
import { createTodoistLabelService } from './domain/integrations/todoist-labels.service.ts';
import { createTokenCipher } from './domain/integrations/token-cipher.ts';
import { createTokenManager } from './domain/integrations/token-manager.ts';
import { createSessionRepository } from './domain/sessions/session.repository.ts';
import { createSessionService } from './domain/sessions/session.service.ts';
import { createSettingsRepository } from './domain/settings/settings.repository.ts';
import { createSettingsService } from './domain/settings/settings.service.ts';
import { type Clock, systemClock } from './domain/shared/clock.ts';
import { createAccountReader } from './domain/users/account.repository.ts';
import type { IdentityProviderName } from './domain/users/user.repository.ts';
import { createUserRepository } from './domain/users/user.repository.ts';
import { createUserService } from './domain/users/user.service.ts';
import { buildServer } from './http/server.ts';
import { loggerOptions } from './logger.ts';
import { createFacebookIdentityProvider } from './providers/facebook/facebook-identity.provider.ts';
import { createGoogleCalendarGateway } from './providers/google-calendar/google-calendar.gateway.ts';
import { createGoogleIdentityProvider } from './providers/google-identity/google-identity.provider.ts';
import { createMicrosoftCalendarGateway } from './providers/microsoft/microsoft-calendar.gateway.ts';
import { createStripeBillingGateway } from './providers/stripe/stripe-billing.adapter.ts';
import { createTodoistGateway } from './providers/todoist/todoist.gateway.ts';
import { createSandboxConsole } from './sandbox/sandbox-console.ts';

export type App = {
  server: FastifyInstance;
  database: Database;
  config: Config;
  emulators: RunningEmulators | null;
  close(): Promise<void>;
};

export type AppOverrides = {
  clock?: Clock;
  identityProviders?: Partial<Record<IdentityProviderName, IdentityProvider>>;
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
      })
    : null;
  const config = emulators ? withEmulators(baseConfig, emulators) : baseConfig;

  const logger = pino(loggerOptions(config.logLevel, config.logFormat));
  const database = await openDatabase(config.database, (error) =>
    logger.warn({ err: error }, 'database connection lost; the pool will reconnect'),
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
  const gateways = {
    todoist: config.todoist ? createTodoistGateway(config.todoist) : null,
    google: config.googleCalendar ? createGoogleCalendarGateway(config.googleCalendar) : null,
    microsoft: config.microsoft ? createMicrosoftCalendarGateway(config.microsoft) : null,
  };
  const tokens = createTokenManager({
    integrations: createIntegrationRepository(database.db),
    cipher: createTokenCipher(config.tokenKeys),
    refreshers: Object.fromEntries(
      Object.entries(gateways).flatMap(([provider, gateway]) =>
        gateway ? [[provider, gateway.refresh]] : [],
      ),
    ),
    clock,
  });
  const integrationSettings = createIntegrationSettingsRepository(database.db);
  const integrationLog = logger.child({ area: 'integrations' });
  const integrations = createIntegrationService({
    tokens,
    settings: integrationSettings,
    gateways,
    clock,
    log: integrationLog,
  });
  const todoistLabels = createTodoistLabelService({
    tokens,
    settings: integrationSettings,
    todoist: gateways.todoist,
    clock,
    log: integrationLog,
  });
  const users = createUserService({ users: userRepository, clock, revokeGrants: integrations.revokeAll });
  const billing = createBillingService({
    users: userRepository,
    events: createStripeEventRepository(database.db),
    gateway: config.stripe ? createStripeBillingGateway(config.stripe) : null,
    appUrl: config.appUrl,
  });
  const sessions = createSessionService({ sessions: createSessionRepository(database.db), clock });
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
    settings: createSettingsService({ settings: createSettingsRepository(database.db) }),
    sessions,
    billing,
    integrations,
    todoistLabels,
    paymentOrigins: config.stripe?.redirectOrigins ?? [],
    identityProviders,
    sandbox: emulators
      ? createSandboxConsole({
          todoistOrigin: emulators.todoist.origin,
          googleCalendarOrigin: emulators.googleCalendar.origin,
          microsoft: emulators.microsoft,
        })
      : null,
    webRoot: `${projectRoot}dist/web`,
    contentRoot: `${projectRoot}content`,
  });

  let closing: Promise<void> | undefined;
  return {
    server,
    database,
    config,
    emulators,
    close: () => {
      closing ??= (async () => {
        await server.close();
        await database.close();
        await emulators?.close();
      })();
      return closing;
    },
  };
}

function withEmulators(config: Config, emulators: RunningEmulators): Config {
  return {
    ...config,
    google: {
      issuer: emulators.google.issuer,
      clientId: emulators.google.clientId,
      clientSecret: emulators.google.clientSecret,
    },
    facebook: {
      dialogUrl: emulators.facebook.dialogUrl,
      graphUrl: emulators.facebook.graphUrl,
      appId: emulators.facebook.appId,
      appSecret: emulators.facebook.appSecret,
    },
    stripe: {
      secretKey: emulators.stripe.secretKey,
      webhookSecret: emulators.stripe.webhookSecret,
      apiUrl: emulators.stripe.origin,
      redirectOrigins: [emulators.stripe.origin],
    },
    todoist: {
      clientId: emulators.todoist.clientId,
      clientSecret: emulators.todoist.clientSecret,
      oauthUrl: emulators.todoist.origin,
      apiUrl: emulators.todoist.origin,
    },
    googleCalendar: {
      clientId: emulators.googleCalendar.clientId,
      clientSecret: emulators.googleCalendar.clientSecret,
      authorizationUrl: emulators.googleCalendar.authUrl,
      tokenUrl: emulators.googleCalendar.tokenUrl,
      revokeUrl: emulators.googleCalendar.revokeUrl,
      apiUrl: emulators.googleCalendar.apiRootUrl,
    },
    microsoft: {
      clientId: emulators.microsoft.clientId,
      clientSecret: emulators.microsoft.clientSecret,
      authorityUrl: `${emulators.microsoft.origin}/common`,
      browserAuthorityUrl: `${emulators.microsoft.consentOrigin}/common`,
      graphUrl: emulators.microsoft.graphBaseUrl,
    },
  };
}
