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

/**
 * The database's statistics kept current, as autovacuum keeps them (it analyzes a table once a tenth of
 * it changed, looking every minute): this machine's PostgreSQL runs without autovacuum, and the job
 * table grows from nothing to tens of thousands of rows within minutes here. With the statistics of an
 * empty table the planner takes the queue's fetch (one a run) for a scan of every job: 20–40 ms each
 * instead of well under one.
 */
export function keepStatistics(url: string): { stop(): Promise<void> } {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  const timer = setInterval(() => {
    void connected.then(() => client.query('analyze')).catch(() => undefined);
  }, 30_000);
  return {
    async stop() {
      clearInterval(timer);
      await connected.then(() => client.end()).catch(() => undefined);
    },
  };
}
