import { mkdir } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { copyTemplateIfNew, embeddedTemplateDir } from './embedded-template.ts';
import { embeddedPgliteOptions } from './pglite-options.ts';
import { openPgliteThread, type PgliteClient } from './pglite-thread.ts';
import * as schema from './schema/index.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs one parameterised statement (the shape the job queue's `db` option takes). */
export type SqlExecutor = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /**
   * `loadDataDir`: a dump (PGlite's `dumpDataDir`) a new database starts from instead of its initdb.
   * `thread`: where PGlite runs; by default a worker thread of its own, so the event loop that answers
   * requests never runs SQL (docs/decisions/026); `main` runs it on this thread.
   */
  | { kind: 'pglite'; dataDir: string; loadDataDir?: Blob; thread?: 'worker' | 'main' };

export type Database = {
  kind: DatabaseTarget['kind'];
  db: Db;
  /** What the job queue connects through: its own pool on a server, the same instance embedded. */
  queueConnection: { kind: 'postgres'; url: string } | { kind: 'pglite'; client: PgliteClient };
  /**
   * Where incoming notifications are recorded before they are answered: on a server a small pool of
   * its own, so an acknowledgement never waits for a connection the sync runs hold; embedded, the
   * same instance. `notificationSql` runs the job queue's statements on it.
   */
  notificationDb: Db;
  notificationSql: SqlExecutor;
  /**
   * The main pool's connections, and how many statements wait for one now: the sync lanes stop opening
   * while statements queue for connections (jobs/sync-lanes.ts). Embedded: one, never waited for here.
   */
  connections: { size: number; waiting(): number };
  ping(): Promise<void>;
  close(): Promise<void>;
};

/** Connections of a process's main pool on PostgreSQL. */
const POOL_SIZE = 10;

/**
 * Opens PostgreSQL (a server) or PGlite (embedded, file-backed or `memory://`). `onConnectionError`: a
 * server's idle connection was lost (the pool replaces it). `onDatabaseLost`: the embedded database's
 * thread died; nothing more can be read or written (by default the error is thrown, uncaught).
 */
export async function openDatabase(
  target: DatabaseTarget,
  onConnectionError: (error: Error) => void,
  onDatabaseLost: (error: Error) => void = (error) => {
    throw error;
  },
): Promise<Database> {
  if (target.kind === 'postgres') {
    // Up to 64 sync runs in flight share it statement by statement (jobs/sync-lanes.ts: no lane opens
    // while more statements wait than it has connections). Twenty made each run shorter but not the
    // latency of changes (docs/performance.md, At scale and evening of 2026-11-28), and every process
    // holds its pool: web, workers and the job queue's own stay well under the server's limit.
    const pool = new pg.Pool({ connectionString: target.url, max: POOL_SIZE });
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
      connections: { size: POOL_SIZE, waiting: () => pool.waitingCount },
      ping: async () => void (await db.execute(sql`select 1`)),
      close: async () => {
        await Promise.all([pool.end(), notificationPool.end()]);
      },
    };
  }
  if (!target.dataDir.startsWith('memory://')) {
    await copyTemplateIfNew(target.dataDir, embeddedTemplateDir());
    await mkdir(target.dataDir, { recursive: true });
  }
  const client: PgliteClient =
    target.thread === 'main'
      ? await openPgliteHere(target)
      : await openPgliteThread(
          {
            dataDir: target.dataDir,
            loadDataDir: target.loadDataDir ? await target.loadDataDir.arrayBuffer() : null,
          },
          onDatabaseLost,
        );
  const db = drizzlePglite({ client: client as PGlite, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    queueConnection: { kind: 'pglite', client },
    notificationDb: db,
    notificationSql: { executeSql: (text, values) => client.query(text, values) },
    connections: { size: 1, waiting: () => 0 },
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}

async function openPgliteHere(target: { dataDir: string; loadDataDir?: Blob }): Promise<PGlite> {
  const client = await PGlite.create(target.dataDir, {
    ...embeddedPgliteOptions(),
    ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
  });
  yieldBeforeEachStatement(client);
  return client;
}

/**
 * On this thread (`thread: 'main'`), PGlite runs every statement on this process's thread, and hands its answers back without a turn of
 * the event loop, so a run that writes a hundred rows in a row held the thread for all of them: the
 * server read no request meanwhile (a burst of webhooks waited seconds to be read, though each was
 * answered in milliseconds once read). Each statement outside a transaction now first lets the event
 * loop take a turn, so incoming requests are read between any two statements.
 */
function yieldBeforeEachStatement(client: PGlite): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  client.query = (async (...args: Parameters<PGlite['query']>) => {
    await nextTurn();
    return query(...args);
  }) as PGlite['query'];
  client.exec = async (...args: Parameters<PGlite['exec']>) => {
    await nextTurn();
    return exec(...args);
  };
}
