import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Config } from '#server/config.ts';
import type { SyncRunReport } from '#server/sync/worker.ts';

export type WorkerProcess = { child: ChildProcess; ready: Promise<void>; exited: Promise<void> };

/**
 * Starts `worker-process.ts` in a process of its own with this configuration (the test's emulators
 * and PostgreSQL); every sync run it ends is handed to `onRun`.
 */
export function startWorkerProcess(
  config: Config,
  onRun: (run: SyncRunReport) => void,
  /** The Microsoft emulator's CA (it serves HTTPS), for the worker to trust. */
  caPath?: string,
): WorkerProcess {
  const child = spawn(process.execPath, ['src/server/test/worker-process.ts'], {
    env: {
      ...process.env,
      WORKER_CONFIG: JSON.stringify(config),
      ...(caPath ? { NODE_EXTRA_CA_CERTS: caPath } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const message = JSON.parse(line) as { ready?: boolean; run?: SyncRunReport };
    if (message.ready) markReady();
    if (message.run) onRun(message.run);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, ready, exited };
}

/**
 * SYNC_CRASH_RUNS property runs (each with four users), SYNC_CRASH_KILLS kills in each, SYNC_LOAD_USERS
 * users at once after them. `npm test` plays a short pass (one run, four kills, 12 users: every kind of
 * crash, the one after a provider's write among them); CI's long pass (SYNC_MODEL_PASS=long) 2, 6 and 32.
 */
const LONG_PASS = process.env.SYNC_MODEL_PASS === 'long';
export const crashRunOptions = {
  runs: Number(process.env.SYNC_CRASH_RUNS ?? (LONG_PASS ? 2 : 1)),
  kills: Number(process.env.SYNC_CRASH_KILLS ?? (LONG_PASS ? 6 : 4)),
  /** Users playing at once in the load phase after the crashes. */
  loadUsers: Number(process.env.SYNC_LOAD_USERS ?? (LONG_PASS ? 32 : 12)),
};
