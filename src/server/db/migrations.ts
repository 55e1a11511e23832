import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { z } from 'zod';
import type { Database } from './client.ts';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const journalSchema = z.object({ entries: z.array(z.object({ tag: z.string() })) });

/** Applies every pending migration; the same SQL runs on PGlite and on PostgreSQL. */
export async function applyMigrations(database: Database): Promise<void> {
  if (database.kind === 'postgres') {
    await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
  } else {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
  }
}

export type MigrationStatus = { expected: number; applied: number };

export async function readMigrationStatus(database: Database): Promise<MigrationStatus> {
  const journal = journalSchema.parse(
    JSON.parse(await readFile(`${migrationsFolder}/meta/_journal.json`, 'utf8')),
  );
  const applied = await database.db
    .execute<{ count: number }>(sql`select count(*)::int as count from drizzle.__drizzle_migrations`)
    .then((result) => rowsOf<{ count: number }>(result)[0]?.count ?? 0)
    .catch(() => 0);
  return { expected: journal.entries.length, applied };
}

/** node-postgres returns `{ rows }`, PGlite returns `{ rows }` too; both are read through this. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
