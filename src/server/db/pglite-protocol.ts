/**
 * The messages between the app's thread and the thread that owns the embedded database
 * (pglite-worker.ts, pglite-thread.ts). Values cross by structured clone, which keeps what PGlite
 * parsed as it is: dates, bigints, parsed json, arrays, bytes.
 */

/** How a statement's rows come back: PGlite's `rowMode`, and the types left as PostgreSQL's text. */
export type RowOptions = { rowMode?: 'array' | 'object'; textTypes?: number[] };

export type Request =
  | { op: 'query'; text: string; params: unknown[]; options: RowOptions; tx?: number }
  | { op: 'exec'; text: string; options: RowOptions; tx?: number }
  /** Opens a transaction; answered with its id once it holds the database. */
  | { op: 'begin' }
  /** Commits (or rolls back) transaction `tx`; answered once it has ended. */
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'rollback'; tx: number }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'dump' }
  | { op: 'close' };

/** `urgent`: issued while answering a request, so run before the background's (statement-priority.ts). */
export type Call = { id: number; request: Request; urgent?: true };

/** A database error's fields (SQLSTATE `code`, `constraint`, `detail`…), which a clone would drop. */
export type ErrorData = { message: string; name: string; stack?: string; fields: Record<string, unknown> };

export type Reply =
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: ErrorData }
  | { type: 'notification'; channel: string; payload: string }
  | { type: 'ready' }
  | { type: 'failed'; error: ErrorData };

/** What the worker is started with (`workerData`). */
export type WorkerInit = { dataDir: string; loadDataDir: ArrayBuffer | null };

export function errorData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { message: error.message, name: error.name, stack: error.stack, fields };
}

export function errorFrom(data: ErrorData): Error {
  const error = Object.assign(new Error(data.message), data.fields);
  error.name = data.name;
  if (data.stack) error.stack = data.stack;
  return error;
}
