import { readFile, writeFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { openDatabase } from '#server/db/client.ts';
import { applyMigrations } from '#server/db/migrations.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the migrated PGlite dump of this test run is (pglite-dump.global-setup.ts). */
    pgliteDumpPath: string;
  }
}

/**
 * Creates a PGlite database with every migration applied and writes its dump to `path`. Creating one
 * (PGlite's initdb, then the migrations) costs 7–10 s of CPU on a loaded 2-core machine, opening a dump
 * about 1 s: the test run makes it once, and every PGlite suite starts from it.
 */
export async function writeMigratedPgliteDump(path: string): Promise<void> {
  const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, () => {});
  await applyMigrations(database);
  if (database.queueConnection.kind !== 'pglite') throw new Error('a PGlite database was opened');
  const dump = await database.queueConnection.client.dumpDataDir('none');
  await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  await database.close();
}

let dump: Promise<Blob> | undefined;

/** The run's migrated dump, read once per test file. */
export function migratedPgliteDump(): Promise<Blob> {
  dump ??= readFile(inject('pgliteDumpPath')).then((bytes) => new Blob([bytes]));
  return dump;
}
