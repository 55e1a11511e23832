import { afterAll, beforeAll } from 'vitest';
import { type Database, openDatabase } from '#server/db/client.ts';
import { applyMigrations } from '#server/db/migrations.ts';
import type { TestDatabase } from './databases.ts';

/**
 * A new, empty `database` with every migration applied, for one `describe`: opened before its tests
 * (unless that database is not enabled here), closed and dropped after them. Returns a getter, since
 * the database exists only once the suite has started.
 */
export function setUpMigratedDatabase(database: TestDatabase): () => Database {
  let opened: Database | undefined;
  let cleanup: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (!database.enabled) return;
    const created = await database.create();
    cleanup = created.cleanup;
    // The scratch database is dropped with force at the end, which cuts idle connections.
    opened = await openDatabase(created.target, () => {});
    await applyMigrations(opened);
  });
  afterAll(async () => {
    await opened?.close();
    await cleanup?.();
  });

  return () => {
    if (!opened) throw new Error('the database is opened in beforeAll');
    return opened;
  };
}
