import { parentPort } from 'node:worker_threads';

/** A database thread that says it is ready, then dies at its first statement (pglite-thread's tests). */
parentPort?.postMessage({ type: 'ready' });
parentPort?.once('message', () => process.exit(3));
