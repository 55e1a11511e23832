import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import {
  type Call,
  errorFrom,
  type Reply,
  type Request,
  type RowOptions,
  type WorkerInit,
} from './pglite-protocol.ts';
import { isAnsweringRequest } from './statement-priority.ts';

/**
 * What the app uses of a PGlite instance: Drizzle's PGlite driver (query, transaction), the job
 * queue's adapter (query, exec, listen), the tests' dump. Both PGlite itself and the embedded
 * database's thread (below) provide it.
 */
export type PgliteClient = Pick<
  PGlite,
  'query' | 'exec' | 'transaction' | 'listen' | 'dumpDataDir' | 'close'
>;

const workerUrl = new URL('./pglite-worker.ts', import.meta.url);

/**
 * Drizzle's driver asks for some types (timestamps, dates, intervals, numeric arrays) as PostgreSQL's
 * text, with parsers that return it unchanged. Functions do not cross to the worker: the worker is
 * told those types, and applies the same parsers there. Any other parser is refused.
 */
function rowOptions(options: QueryOptions | undefined): RowOptions {
  if (!options) return {};
  const { rowMode, parsers, serializers, ...rest } = options;
  if (serializers || Object.keys(rest).length > 0) {
    throw new Error(`query options the database thread does not take: ${Object.keys(options).join(', ')}`);
  }
  const probe = '2000-01-01 00:00:00';
  const textTypes = Object.entries(parsers ?? {}).map(([oid, parse]) => {
    if (parse(probe, Number(oid)) !== probe) throw new Error(`type ${oid} has a parser of its own`);
    return Number(oid);
  });
  return { ...(rowMode ? { rowMode } : {}), ...(textTypes.length ? { textTypes } : {}) };
}

/**
 * Opens the embedded database on a worker thread of its own, so this thread's event loop never runs
 * SQL (docs/decisions/026). `onExit`: the worker died while the database was open (one that cannot
 * open it fails this call instead); every statement in flight and after it fails.
 */
export async function openPgliteThread(
  init: WorkerInit,
  onExit: (error: Error) => void,
  /** The worker's module (tests give one of their own). */
  script: URL = workerUrl,
): Promise<PgliteClient> {
  const worker = new Worker(script, {
    workerData: init,
    transferList: init.loadDataDir ? [init.loadDataDir] : [],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let nextId = 1;
  let lost: Error | null = null;
  let closing = false;

  let opened: { resolve: () => void; reject: (error: Error) => void } | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    opened = { resolve, reject };
  });

  const fail = (error: Error) => {
    if (lost) return;
    lost = error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
    if (opened) opened.reject(error);
    else if (!closing) onExit(error);
  };

  worker.on('message', (reply: Reply) => {
    if (reply.type === 'ready') {
      opened?.resolve();
      opened = null;
    } else if (reply.type === 'failed') {
      fail(errorFrom(reply.error));
    } else if (reply.type === 'notification') {
      for (const listener of listeners.get(reply.channel) ?? []) listener(reply.payload);
    } else {
      const call = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.ok) call?.resolve(reply.value);
      else call?.reject(errorFrom(reply.error));
    }
  });
  worker.on('error', (error) =>
    fail(
      Object.assign(new Error(`the embedded database's thread failed: ${error.message}`), { cause: error }),
    ),
  );
  worker.on('exit', (code) => {
    fail(new Error(`the embedded database's thread exited (code ${code})`));
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  const call = <T>(request: Request): Promise<T> => {
    if (lost) return Promise.reject(lost);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      const call: Call = isAnsweringRequest() ? { id, request, urgent: true } : { id, request };
      worker.postMessage(call);
    });
  };

  const session = (tx?: number) => ({
    query: async <T>(text: string, params: unknown[] = [], options?: QueryOptions) =>
      call<Results<T>>({ op: 'query', text, params, options: rowOptions(options), ...(tx ? { tx } : {}) }),
    exec: async (text: string, options?: QueryOptions) =>
      call<Results[]>({ op: 'exec', text, options: rowOptions(options), ...(tx ? { tx } : {}) }),
  });

  const listen = async (channel: string, callback: (payload: string) => void) => {
    let set = listeners.get(channel);
    if (!set) {
      set = new Set();
      listeners.set(channel, set);
      await call({ op: 'listen', channel });
    }
    set.add(callback);
    return async () => {
      const current = listeners.get(channel);
      current?.delete(callback);
      if (current?.size === 0) {
        listeners.delete(channel);
        await call({ op: 'unlisten', channel });
      }
    };
  };

  const transaction = async <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => {
    const tx = await call<number>({ op: 'begin' });
    let closed = false;
    const handle = {
      ...session(tx),
      sql: () => Promise.reject(new Error('tagged sql is not offered on the database thread')),
      listen,
      rollback: async () => {
        await call({ op: 'rollback', tx });
        closed = true;
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await work(handle);
    } catch (error) {
      await call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await call({ op: 'end', tx, commit: true });
    return result;
  };

  try {
    await ready;
  } catch (error) {
    await exited;
    throw error;
  }

  const client = {
    ...session(),
    transaction,
    listen,
    dumpDataDir: async () => new File([await call<ArrayBuffer>({ op: 'dump' })], 'pglite.tar'),
    close: async () => {
      closing = true;
      if (!lost) await call({ op: 'close' });
      await exited;
    },
  };
  return client as unknown as PgliteClient;
}
