import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { embeddedPgliteOptions } from './pglite-options.ts';
import {
  type Call,
  errorData,
  type Reply,
  type Request,
  type RowOptions,
  type WorkerInit,
} from './pglite-protocol.ts';

/**
 * The thread that owns the embedded database (pglite-thread.ts starts it): PGlite runs each statement
 * synchronously on the thread it lives on, so here it holds up none of the app's requests. One
 * connection: PGlite runs one statement at a time and queues every other behind an open transaction.
 */

if (!parentPort) throw new Error('pglite-worker.ts runs as a worker thread');
const port = parentPort;
const init = workerData as WorkerInit;
const post = (reply: Reply) => port.postMessage(reply);

const keepText = (value: string) => value;
const queryOptions = ({ rowMode, textTypes }: RowOptions): QueryOptions => ({
  ...(rowMode ? { rowMode } : {}),
  ...(textTypes?.length ? { parsers: Object.fromEntries(textTypes.map((oid) => [oid, keepText])) } : {}),
});

type Open = { tx: Transaction; end: (commit: boolean) => void; ended: Promise<void> };

async function serve(client: PGlite): Promise<void> {
  const transactions = new Map<number, Open>();
  const listening = new Map<string, () => Promise<void>>();
  let nextTx = 1;

  const session = (tx: number | undefined): Pick<Transaction, 'query' | 'exec'> => {
    if (tx === undefined) return client;
    const open = transactions.get(tx);
    if (!open) throw new Error(`transaction ${tx} is not open`);
    return open.tx;
  };

  const begin = () =>
    new Promise<number>((begun, failed) => {
      const id = nextTx++;
      let end: (commit: boolean) => void = () => {};
      const commit = new Promise<boolean>((resolve) => {
        end = resolve;
      });
      const ended = client
        .transaction(async (tx) => {
          transactions.set(id, { tx, end, ended });
          begun(id);
          if (!(await commit) && !tx.closed) await tx.rollback();
        })
        .finally(() => transactions.delete(id));
      ended.catch(failed);
    });

  const handle = async (request: Request): Promise<unknown> => {
    switch (request.op) {
      case 'query':
        return session(request.tx).query(request.text, request.params, queryOptions(request.options));
      case 'exec':
        return session(request.tx).exec(request.text, queryOptions(request.options));
      case 'begin':
        return begin();
      case 'end': {
        const open = transactions.get(request.tx);
        if (!open) throw new Error(`transaction ${request.tx} is not open`);
        open.end(request.commit);
        await open.ended;
        return null;
      }
      case 'rollback': {
        const open = transactions.get(request.tx);
        if (!open) throw new Error(`transaction ${request.tx} is not open`);
        await open.tx.rollback();
        return null;
      }
      case 'listen': {
        if (!listening.has(request.channel)) {
          const unlisten = await client.listen(request.channel, (payload) =>
            post({ type: 'notification', channel: request.channel, payload }),
          );
          listening.set(request.channel, unlisten);
        }
        return null;
      }
      case 'unlisten': {
        const unlisten = listening.get(request.channel);
        listening.delete(request.channel);
        await unlisten?.();
        return null;
      }
      case 'dump':
        return (await client.dumpDataDir('none')).arrayBuffer();
      case 'close':
        await client.close();
        return null;
    }
  };

  port.on('message', (call: Call) => {
    handle(call.request).then(
      (value) => {
        const transfer = value instanceof ArrayBuffer ? [value] : [];
        port.postMessage({ type: 'reply', id: call.id, ok: true, value } satisfies Reply, transfer);
        if (call.request.op === 'close') port.close();
      },
      (error: unknown) => post({ type: 'reply', id: call.id, ok: false, error: errorData(error) }),
    );
  });
  post({ type: 'ready' });
}

PGlite.create(init.dataDir, {
  ...embeddedPgliteOptions(),
  ...(init.loadDataDir ? { loadDataDir: new Blob([init.loadDataDir]) } : {}),
}).then(serve, (error: unknown) => {
  post({ type: 'failed', error: errorData(error) });
  port.close();
});
