import { type ChildProcess, fork } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProcessReply } from './protocol.ts';

// biome-ignore lint/suspicious/noExplicitAny: an API is any object of one-argument async functions
export type Api = Record<string, (args: any) => Promise<unknown>>;

export type Child<A extends Api, R> = {
  ready: R;
  call<K extends keyof A & string>(cmd: K, args: Parameters<A[K]>[0]): ReturnType<A[K]>;
  /** Asks the process to close everything and exit; kills it when it does not. */
  stop(): Promise<void>;
};

/**
 * Starts one of the benchmark's processes (a file beside this one) and waits for its `ready` message.
 * Its standard output goes to `logFile` (or nowhere), its errors to ours.
 */
export async function startChild<A extends Api, R extends { type: 'ready' }>(
  file: string,
  argument: unknown,
  options: { logFile?: string | null; execArgv?: string[]; startTimeoutMs?: number } = {},
): Promise<Child<A, R>> {
  const logFd = options.logFile ? openSync(options.logFile, 'w') : 'ignore';
  const child: ChildProcess = fork(
    fileURLToPath(new URL(file, import.meta.url)),
    [JSON.stringify(argument)],
    {
      stdio: ['ignore', logFd, 'inherit', 'ipc'],
      execArgv: options.execArgv ?? [],
    },
  );
  if (typeof logFd === 'number') closeSync(logFd);
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let exited = false;
  let nextId = 1;

  const ready = await new Promise<R>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${file} did not start in time`)),
      options.startTimeoutMs ?? 120_000,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code} before it was ready`));
    });
    child.on('message', (message: R | ProcessReply) => {
      if ('type' in message) {
        clearTimeout(timer);
        resolve(message);
        return;
      }
      const entry = waiting.get(message.id);
      if (!entry) return;
      waiting.delete(message.id);
      if (message.ok) entry.resolve(message.result);
      else entry.reject(new Error(`${file}: ${message.error}`));
    });
  });
  child.on('exit', (code, signal) => {
    exited = true;
    for (const entry of waiting.values())
      entry.reject(new Error(`${file} exited (${signal ?? code}) during a call`));
    waiting.clear();
  });

  const call = ((cmd: string, args: unknown) =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error(`${file} is gone`));
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ id, cmd, args });
    })) as Child<A, R>['call'];

  return {
    ready,
    call,
    async stop() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await call('stop', {}).catch(() => child.kill('SIGTERM'));
      await gone;
      clearTimeout(timer);
    },
  };
}
