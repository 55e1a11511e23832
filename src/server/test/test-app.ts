import { type App, type AppOverrides, createApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { DatabaseTarget } from '#server/db/client.ts';

export const TEST_APP_URL = 'http://localhost:3000';

/** The whole app on an in-memory database (or the given one), in sandbox mode unless env says otherwise. */
export async function createTestApp(
  options: { env?: Record<string, string>; overrides?: AppOverrides; database?: DatabaseTarget } = {},
): Promise<App> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PGLITE_DATA_DIR: 'memory://',
    APP_URL: TEST_APP_URL,
    ...options.env,
  });
  return createApp(options.database ? { ...config, database: options.database } : config, options.overrides);
}

/** Headers a same-origin browser page sends with a navigation or fetch. */
export const sameOrigin = { 'sec-fetch-site': 'same-origin' } as const;
export const crossSite = { 'sec-fetch-site': 'cross-site' } as const;
