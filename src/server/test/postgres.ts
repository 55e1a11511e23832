import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server integration tests use; CI machines run one at this address. */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Set by CI: a missing PostgreSQL is then a failure, not a skip. */
export const POSTGRES_REQUIRED = process.env.REQUIRE_POSTGRES === '1';

let reachable: Promise<boolean> | undefined;

export function isPostgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

/** Resolves whether the PostgreSQL tests run here, and says so when they are skipped. */
export async function postgresTestsEnabled(suite: string): Promise<boolean> {
  if (await isPostgresReachable()) return true;
  if (POSTGRES_REQUIRED) {
    throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${POSTGRES_URL} is not reachable`);
  }
  console.warn(`[skipped] ${suite} on PostgreSQL: no server reachable at ${POSTGRES_URL}`);
  return false;
}

/** A fresh, empty database on the server, dropped again by the returned function. */
export async function createScratchDatabase(): Promise<{
  url: string;
  drop(): Promise<void>;
  activity(): Promise<string>;
}> {
  const name = `scratch_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
    /** What each connection to the database is doing now, for a teardown that overruns. */
    async activity() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        const { rows } = await client.query<{ state: string | null; waiting: string | null; query: string }>(
          `select state, wait_event_type || '/' || wait_event as waiting, left(query, 160) as query
             from pg_stat_activity where datname = $1`,
          [name],
        );
        const lines = rows.map((row) => `${row.state} (${row.waiting ?? 'not waiting'}): ${row.query}`);
        return lines.length > 0 ? lines.join(' | ') : 'no connection';
      } finally {
        await client.end();
      }
    },
  };
}
