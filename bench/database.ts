import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { POSTGRES_URL } from '#server/test/postgres.ts';
import type { Options } from './options.ts';
import type { HostOptions } from './protocol.ts';

/** The benchmark's own database, created for the run and dropped after it. */
export type Database = { options: HostOptions['database']; label: string; drop(): Promise<void> };

export async function openDatabase(kind: Options['db']): Promise<Database> {
  if (kind === 'pglite') {
    // On disk, as the product keeps it by default (`.data/pglite`), in a folder of its own.
    const dataDir = join(tmpdir(), `timeboxer-bench-${process.pid}`);
    await rm(dataDir, { recursive: true, force: true });
    execFileSync(
      process.execPath,
      [fileURLToPath(new URL('./prepare-pglite.ts', import.meta.url)), dataDir],
      {
        stdio: 'inherit',
      },
    );
    return {
      options: { kind: 'pglite', dataDir },
      label: 'PGlite (embedded, on disk)',
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `timeboxer_bench_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    options: { kind: 'postgres', url: url.toString() },
    label: 'PostgreSQL',
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
