import { afterAll, beforeAll } from 'vitest';
import type { App, AppOverrides } from '#server/app.ts';
import { type Database, type DatabaseTarget, openDatabase } from '#server/db/client.ts';
import { applyMigrations } from '#server/db/migrations.ts';
import type { TestDatabase } from './databases.ts';
import { createTestApp } from './test-app.ts';

/**
 * What one `describe` works on, opened on a new, empty `database` before its tests (unless that
 * database is not enabled here), closed after them and the database dropped. Returns a getter, since
 * it exists only once the suite has started.
 */
function setUpOnNewDatabase<T extends { close(): Promise<unknown> }>(
  database: TestDatabase,
  open: (target: DatabaseTarget) => Promise<T>,
): () => T {
  let opened: T | undefined;
  let cleanup: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (!database.enabled) return;
    const created = await database.create();
    cleanup = created.cleanup;
    opened = await open(created.target);
  });
  afterAll(async () => {
    await opened?.close();
    await cleanup?.();
  });

  return () => {
    if (!opened) throw new Error('opened in beforeAll, on an enabled database only');
    return opened;
  };
}

/** The test app, for one `describe` (see above); `listen` puts it on a port, for the emulators' notifications. */
export function setUpTestApp(
  database: TestDatabase,
  options: { env?: Record<string, string>; overrides?: AppOverrides; listen?: boolean } = {},
): () => App {
  return setUpOnNewDatabase(database, async (target) => {
    const app = await createTestApp({ database: target, env: options.env, overrides: options.overrides });
    if (options.listen) {
      const address = await app.server.listen({ host: 'localhost', port: 0 });
      await app.listening(address.replace('127.0.0.1', 'localhost'));
    }
    return app;
  });
}

/** The database itself with every migration applied, for one `describe` (see above). */
export function setUpMigratedDatabase(database: TestDatabase): () => Database {
  return setUpOnNewDatabase(database, async (target) => {
    // The scratch database is dropped with force at the end, which cuts idle connections.
    const opened = await openDatabase(target, () => {});
    await applyMigrations(opened);
    return opened;
  });
}
