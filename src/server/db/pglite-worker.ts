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
 *
 * Which waits its turn is decided here: a statement or transaction issued while the app answers a
 * request (`urgent`: statement-priority.ts) is taken before the background's (sync runs, the job
 * queue) that were waiting before it, so a webhook's acknowledgement or a page's read waits for the
 * statement in progress, not for every run's queued behind it. After `URGENT_BEFORE_BACKGROUND` urgent
 * ones in a row, one waiting background statement goes, so a flood of requests never stops the sync.
 * Statements of an open transaction run at once: the transaction already holds the database.
 */
const URGENT_BEFORE_BACKGROUND = 4;

if (!parentPort) throw new Error('pglite-worker.ts runs as a worker thread');
const port = parentPort;
const init = workerData as WorkerInit;
const post = (reply: Reply) => port.postMessage(reply);

const keepText = (value: string) => value;
const queryOptions = ({ rowMode, textTypes }: RowOptions): QueryOptions => ({
  ...(rowMode ? { rowMode } : {}),
  ...(textTypes?.length ? { parsers: Object.fromEntries(textTypes.map((oid) => [oid, keepText])) } : {}),
});

const noop = () => {};

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

  /** Opens a transaction: answers its id once it holds the database, and `ended` once it let go. */
  const begin = (ended: (done: Promise<void>) => void) =>
    new Promise<number>((begun, failed) => {
      const id = nextTx++;
      let end: (commit: boolean) => void = () => {};
      const commit = new Promise<boolean>((resolve) => {
        end = resolve;
      });
      const done = client
        .transaction(async (tx) => {
          transactions.set(id, { tx, end, ended: done });
          begun(id);
          if (!(await commit) && !tx.closed) await tx.rollback();
        })
        .finally(() => transactions.delete(id));
      done.catch(failed);
      ended(done.then(noop, noop));
    });

  /** Runs one request; `held`: told what holds the database once it answered (a transaction, until it ends). */
  const handle = async (request: Request, held: (until: Promise<void>) => void = noop): Promise<unknown> => {
    switch (request.op) {
      case 'query':
        return session(request.tx).query(request.text, request.params, queryOptions(request.options));
      case 'exec':
        return session(request.tx).exec(request.text, queryOptions(request.options));
      case 'begin':
        return begin(held);
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

  const answer = (call: Call, held?: (until: Promise<void>) => void): Promise<void> =>
    handle(call.request, held).then(
      (value) => {
        const transfer = value instanceof ArrayBuffer ? [value] : [];
        port.postMessage({ type: 'reply', id: call.id, ok: true, value } satisfies Reply, transfer);
        if (call.request.op === 'close') port.close();
      },
      (error: unknown) => post({ type: 'reply', id: call.id, ok: false, error: errorData(error) }),
    );

  const urgent: Call[] = [];
  const background: Call[] = [];
  let urgentInARow = 0;
  let holding = false;

  const nextCall = (): Call | undefined => {
    if (background.length > 0 && (urgent.length === 0 || urgentInARow >= URGENT_BEFORE_BACKGROUND)) {
      urgentInARow = 0;
      return background.shift();
    }
    const call = urgent.shift();
    if (call) urgentInARow += 1;
    return call;
  };

  /**
   * Gives the database to the next waiting call once nothing holds it. Chosen a turn of the event loop
   * later: a statement runs synchronously, and the calls posted meanwhile are read only between turns,
   * so choosing at once would always take the next call read, not the most urgent one waiting.
   */
  let pumping = false;
  const pumpSoon = () => {
    if (pumping) return;
    pumping = true;
    setImmediate(() => {
      pumping = false;
      pump();
    });
  };
  const pump = () => {
    if (holding) return;
    const call = nextCall();
    if (!call) return;
    holding = true;
    let until: Promise<void> | null = null;
    void answer(call, (transaction) => {
      until = transaction;
    }).then(async () => {
      if (until) await until;
      holding = false;
      pumpSoon();
    });
  };

  port.on('message', (call: Call) => {
    // Part of a transaction that holds the database (its statements, its end): at once.
    if ('tx' in call.request && call.request.tx !== undefined) {
      void answer(call);
      return;
    }
    (call.urgent ? urgent : background).push(call);
    pumpSoon();
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
