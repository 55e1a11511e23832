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
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
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
  };
}
