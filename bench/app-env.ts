import type { HostOptions } from './protocol.ts';

/**
 * The app's environment in the benchmark: "live" providers that are the emulators in their own process,
 * configured as the real ones would be. The one place both the in-process app (app-host.ts) and the
 * scale benchmark's web and worker processes take it from.
 */
export function appEnvironment(
  options: Pick<HostOptions, 'emulators' | 'database' | 'maxRuns' | 'calendar'> & { logLevel: string },
): Record<string, string> {
  const providers = options.emulators;
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: options.logLevel,
    LOG_FORMAT: 'json',
    PGLITE_DATA_DIR: options.database.kind === 'pglite' ? options.database.dataDir : 'memory://',
    APP_URL: 'http://localhost:3000',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    GOOGLE_CLIENT_ID: providers.google.clientId,
    GOOGLE_CLIENT_SECRET: providers.google.clientSecret,
    GOOGLE_ISSUER: providers.google.issuer,
    TODOIST_CLIENT_ID: providers.todoist.clientId,
    TODOIST_CLIENT_SECRET: providers.todoist.clientSecret,
    TODOIST_BASE_URL: providers.todoist.origin,
    TODOIST_API_URL: providers.todoist.origin,
    GOOGLE_AUTHORIZATION_URL: providers.googleCalendar.authUrl,
    GOOGLE_TOKEN_URL: providers.googleCalendar.tokenUrl,
    GOOGLE_REVOKE_URL: providers.googleCalendar.revokeUrl,
    GOOGLE_CALENDAR_API_URL: providers.googleCalendar.apiRootUrl,
    ...(options.database.kind === 'postgres' ? { DATABASE_URL: options.database.url } : {}),
    ...(options.maxRuns === null ? {} : { SYNC_MAX_RUNS_PER_WORKER: String(options.maxRuns) }),
    ...(options.calendar === 'microsoft'
      ? {
          MICROSOFT_CLIENT_ID: providers.microsoft.clientId,
          MICROSOFT_CLIENT_SECRET: providers.microsoft.clientSecret,
          MICROSOFT_AUTHORITY_URL: `${providers.microsoft.origin}/common`,
          MICROSOFT_GRAPH_URL: providers.microsoft.graphBaseUrl,
        }
      : {}),
  };
}
