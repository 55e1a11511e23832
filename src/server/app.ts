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
import { createGoogleIdentityProvider } from './providers/google-identity/google-identity.provider.ts';
import { createStripeBillingGateway } from './providers/stripe/stripe-billing.adapter.ts';
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
  const users = createUserService({ users: userRepository, clock });
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
  };
}
