import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which statements answer someone waiting: those issued while the web server answers a request (a
 * page's read, a setting, a webhook's acknowledgement). On the embedded database every statement takes
 * the one connection in turn, so these go before the sync runs' and the job queue's waiting beside them
 * (pglite-worker.ts); on a server the pools run them side by side and nothing changes.
 */
const answering = new AsyncLocalStorage<true>();

/** Runs `work` (and everything it starts) as part of answering a request. */
export function answeringRequest<T>(work: () => T): T {
  return answering.run(true, work);
}

/** Whether the statement about to be issued is part of answering a request. */
export const isAnsweringRequest = (): boolean => answering.getStore() === true;
