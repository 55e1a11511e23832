import pg from 'pg';
import type { PgliteClient } from '#server/db/pglite-thread.ts';
import { now } from './stats.ts';

/**
 * Counts and times the app's SQL statements (`--sql-profile`): every statement through PGlite's
 * `query`/`exec`, or through node-postgres's `Client.query` (drizzle's pool and pg-boss's alike).
 *
 * PGlite runs one statement at a time (on its own thread), so a statement's own time is taken from when
 * it could start (it was issued and the one before had finished) to when it finished, the way to its
 * thread and back included; on PostgreSQL
 * statements overlap, and the time is from issue to answer.
 */
export type SqlStatementStats = {
  sql: string;
  count: number;
  totalMs: number;
  meanMs: number;
  maxMs: number;
  rows: number;
};

export function profileSql(target: { kind: 'pglite'; client: PgliteClient } | { kind: 'postgres' }) {
  const stats = new Map<string, { count: number; totalMs: number; maxMs: number; rows: number }>();
  let lastEnd = 0;
  const record = (text: unknown, started: number, result?: unknown) => {
    const ended = now();
    const own = target.kind === 'pglite' ? ended - Math.max(started, lastEnd) : ended - started;
    lastEnd = ended;
    const key = String(text).replace(/\s+/g, ' ').trim().slice(0, 110);
    const entry = stats.get(key) ?? { count: 0, totalMs: 0, maxMs: 0, rows: 0 };
    entry.count += 1;
    entry.rows += rowsOf(result);
    entry.totalMs += Math.max(0, own);
    entry.maxMs = Math.max(entry.maxMs, own);
    stats.set(key, entry);
  };
  const timed = <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    function (this: unknown, ...args: A): Promise<R> {
      const started = now();
      const result = call.apply(this, args);
      void result.then(
        (value) => record(args[0], started, value),
        () => record(args[0], started),
      );
      return result;
    };

  if (target.kind === 'pglite') {
    const client = target.client as unknown as Record<
      'query' | 'exec',
      (...args: unknown[]) => Promise<unknown>
    >;
    client.query = timed(client.query.bind(client));
    client.exec = timed(client.exec.bind(client));
  } else {
    const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = prototype.query;
    prototype.query = function (this: unknown, ...args: unknown[]) {
      const started = now();
      const text =
        typeof args[0] === 'object' && args[0] !== null ? (args[0] as { text?: string }).text : args[0];
      // A pool checks its client out and queries with a callback (the form drizzle and pg-boss reach).
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (error: unknown, value: unknown) => {
          record(text, started, error ? undefined : value);
          return callback(error, value);
        };
      }
      const result = original.apply(this, args);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        void (result as Promise<unknown>).then(
          (value) => record(text, started, value),
          () => record(text, started),
        );
      }
      return result;
    };
  }

  return {
    top(limit: number): SqlStatementStats[] {
      return [...stats]
        .map(([sql, entry]) => ({
          sql,
          count: entry.count,
          totalMs: entry.totalMs,
          meanMs: entry.totalMs / entry.count,
          maxMs: entry.maxMs,
          rows: entry.rows,
        }))
        .sort((a, b) => b.totalMs - a.totalMs)
        .slice(0, limit);
    },
  };
}

/** Rows a statement returned (PGlite's exec answers with one result per statement). */
function rowsOf(result: unknown): number {
  if (Array.isArray(result)) return result.reduce((sum: number, one) => sum + rowsOf(one), 0);
  const rows = (result as { rows?: unknown[] } | undefined)?.rows;
  return Array.isArray(rows) ? rows.length : 0;
}
