import { afterAll, beforeAll } from 'vitest';
import type { App, AppOverrides } from '#server/app.ts';
import type { TestDatabase } from './databases.ts';
import { createTestApp } from './test-app.ts';

/**
 * The test app on a new, empty `database`, for one `describe`: made before its tests (unless that
 * database is not enabled here), closed (and the database dropped) after them. `listen` puts it on a port, so the emulators' notifications reach it.
 * Returns a getter, since the app exists only once the suite has started.
 */
export function setUpTestApp(
  database: TestDatabase,
  options: { env?: Record<string, string>; overrides?: AppOverrides; listen?: boolean } = {},
): () => App {
  let app: App | undefined;
  let cleanup: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (!database.enabled) return;
    const created = await database.create();
    cleanup = created.cleanup;
    app = await createTestApp({ database: created.target, env: options.env, overrides: options.overrides });
    if (options.listen) {
      const address = await app.server.listen({ host: 'localhost', port: 0 });
      await app.listening(address.replace('127.0.0.1', 'localhost'));
    }
  });
  afterAll(async () => {
    await app?.close();
    await cleanup?.();
  });

  return () => {
    if (!app) throw new Error('the test app is made in beforeAll');
    return app;
  };
}
