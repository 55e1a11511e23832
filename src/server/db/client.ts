import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs one parameterised statement (the shape the job queue's `db` option takes). */
export type SqlExecutor = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

export type Database = {
  kind: DatabaseTarget['kind'];
  db: Db;
  /** What the job queue connects through: its own pool on a server, the same instance embedded. */
  queueConnection: { kind: 'postgres'; url: string } | { kind: 'pglite'; client: PGlite };
  /**
   * Where incoming notifications are recorded before they are answered: on a server a small pool of
   * its own, so an acknowledgement never waits for a connection the sync runs hold; embedded, the
   * same instance. `notificationSql` runs the job queue's statements on it.
   */
  notificationDb: Db;
  notificationSql: SqlExecutor;
  ping(): Promise<void>;
  close(): Promise<void>;
};

/** Opens PostgreSQL (a server) or PGlite (embedded, file-backed or `memory://`). */
export async function openDatabase(
  target: DatabaseTarget,
  onConnectionError: (error: Error) => void,
): Promise<Database> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    pool.on('error', onConnectionError);
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    // One batch of notifications is written at a time (group commit): two connections are plenty.
    const notificationPool = new pg.Pool({ connectionString: target.url, max: 2 });
    notificationPool.on('error', onConnectionError);
    return {
      kind: 'postgres',
      db,
      queueConnection: { kind: 'postgres', url: target.url },
      notificationDb: drizzlePg({ client: notificationPool, schema }) as unknown as Db,
      notificationSql: { executeSql: (text, values) => notificationPool.query(text, values) },
      ping: async () => void (await db.execute(sql`select 1`)),
      close: async () => {
        await Promise.all([pool.end(), notificationPool.end()]);
      },
    };
  }
  if (!target.dataDir.startsWith('memory://')) await mkdir(target.dataDir, { recursive: true });
  const client = await PGlite.create(target.dataDir);
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    queueConnection: { kind: 'pglite', client },
    notificationDb: db,
    notificationSql: { executeSql: (text, values) => client.query(text, values) },
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}
