import { afterAll, beforeAll } from 'vitest';
import { type App, type AppOverrides, createApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { DatabaseTarget } from '#server/db/client.ts';
import { migratedPgliteDump } from './pglite-dump.ts';

export const TEST_APP_URL = 'http://localhost:3000';

/**
 * The whole app in sandbox mode (unless env says otherwise), on the given database or else an in-memory
 * PGlite one started from the run's migrated dump (pglite-dump.ts: opening it costs about a seventh of
 * creating and migrating a database).
 */
export async function createTestApp(
  options: { env?: Record<string, string>; overrides?: AppOverrides; database?: DatabaseTarget } = {},
): Promise<App> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PGLITE_DATA_DIR: 'memory://',
    APP_URL: TEST_APP_URL,
    // A webhook the app refused (a run's database busy, the app closing) is tried again within a test's
    // patience: Todoist's own 15 minutes would outlast any flush of the notifications.
    TODOIST_WEBHOOK_RETRY_SECONDS: '1',
    ...options.env,
  });
  const database =
    options.database ??
    (config.database.kind === 'pglite' && config.database.dataDir === 'memory://'
      ? { ...config.database, loadDataDir: await migratedPgliteDump() }
      : config.database);
  return createApp({ ...config, database }, options.overrides);
}

/** Headers a same-origin browser page sends with a navigation or fetch. */
export const sameOrigin = { 'sec-fetch-site': 'same-origin' } as const;
export const crossSite = { 'sec-fetch-site': 'cross-site' } as const;

/**
 * A test app of its own for one `describe`, built before its tests and closed after them: building an
 * app is the slow part, so it happens in a hook (with the hook's longer timeout), never inside a test.
 */
export function useTestApp(options: Parameters<typeof createTestApp>[0] = {}): () => App {
  let app: App | undefined;
  beforeAll(async () => {
    app = await createTestApp(options);
  });
  afterAll(() => app?.close());
  return () => {
    if (!app) throw new Error('built in beforeAll');
    return app;
  };
}
