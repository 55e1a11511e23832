import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { Database } from '#server/db/client.ts';

/** The statements some work issued, in the order they were issued (their SQL, whitespace folded). */
export type Statements = string[];

export type StatementCounter = {
  /** Runs `work`, and says what it answered and which statements it (and nothing else) issued. */
  during<T>(work: () => Promise<T>): Promise<{ result: T; statements: Statements }>;
  /** Puts the database's own calls back. */
  restore(): void;
};

/** Marks a statement a pool's `query` already counted, so the client's `query` under it does not. */
const COUNTED = Symbol('counted');

const folded = (text: unknown) => String(text).replace(/\s+/g, ' ').trim();

/**
 * Counts the statements some work issues (tests and the benchmark only: nothing in the app counts).
 * Embedded, every call to the database's thread (a statement, a transaction's begin and end); on a
 * server, every `query` of node-postgres, the app's pools and the job queue's alike. A statement
 * counts for the work in whose async context it was issued, so statements issued meanwhile by other
 * work (the job queue's timers, another run) are not counted.
 */
export function countStatements(
  database: Pick<Database, 'queueConnection'>,
  /** Told of every statement, whatever issued it (the benchmark tells the queue's apart by their SQL). */
  everyStatement?: (text: string) => void,
): StatementCounter {
  const context = new AsyncLocalStorage<Statements>();
  const note = (text: unknown) => {
    const store = context.getStore();
    if (!store && !everyStatement) return;
    const sql = folded(text);
    store?.push(sql);
    everyStatement?.(sql);
  };
  const restore =
    database.queueConnection.kind === 'pglite'
      ? countEmbedded(database.queueConnection.client as unknown as EmbeddedCalls, note)
      : countServer(note);
  return {
    async during(work) {
      const statements: Statements = [];
      const result = await context.run(statements, work);
      return { result, statements: [...statements] };
    },
    restore,
  };
}

type Call = (...args: unknown[]) => Promise<unknown>;
type EmbeddedCalls = Record<'query' | 'exec', Call> & {
  transaction: (work: (tx: Record<'query' | 'exec', Call>) => Promise<unknown>) => Promise<unknown>;
};

function countEmbedded(client: EmbeddedCalls, note: (text: unknown) => void): () => void {
  const { query, exec, transaction } = client;
  const counted =
    (call: Call): Call =>
    (...args) => {
      note(args[0]);
      return call(...args);
    };
  client.query = counted(query);
  client.exec = counted(exec);
  client.transaction = (work) => {
    note('begin');
    return transaction(async (tx) => {
      const result = await work({ ...tx, query: counted(tx.query), exec: counted(tx.exec) });
      note('commit');
      return result;
    });
  };
  return () => {
    client.query = query;
    client.exec = exec;
    client.transaction = transaction;
  };
}

/**
 * A pool's `query` runs its statement on a client it checks out, in a callback that may run in the
 * context of whichever statement gave the client back: the pool's call counts it (in the caller's
 * context), and marks it so that the client's call does not count it again.
 */
function countServer(note: (text: unknown) => void): () => void {
  const pool = pg.Pool.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const poolQuery = pool.query;
  const clientQuery = client.query;
  const textOf = (config: unknown) =>
    typeof config === 'object' && config !== null ? (config as { text?: string }).text : config;
  pool.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0];
    const submittable = typeof (config as { submit?: unknown } | null)?.submit === 'function';
    if (!submittable) {
      note(textOf(config));
      args[0] =
        typeof config === 'object' && config !== null
          ? { ...config, [COUNTED]: true }
          : { text: config, [COUNTED]: true };
    }
    return poolQuery.apply(this, args);
  };
  client.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0];
    const already = typeof config === 'object' && config !== null && COUNTED in config;
    if (!already) note(textOf(config));
    return clientQuery.apply(this, args);
  };
  return () => {
    pool.query = poolQuery;
    client.query = clientQuery;
  };
}
