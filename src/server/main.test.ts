import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const mainPath = fileURLToPath(new URL('./main.ts', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

// A whole server process, creating its embedded database in memory: on a 2-core machine running other
// test files beside it, a start has taken over 20 s.
const STARTED_WITHIN_MS = 90_000;

async function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs = STARTED_WITHIN_MS,
): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
}

describe('the server process', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
  });

  it(
    'starts in sandbox mode, says where to open it, and shuts down cleanly on SIGTERM',
    async () => {
      const port = await freePort();
      child = spawn(process.execPath, [mainPath], {
        env: {
          ...process.env,
          PORT: String(port),
          PGLITE_DATA_DIR: 'memory://',
          LOG_LEVEL: 'info',
          NODE_ENV: 'development',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output = await waitForOutput(child, /Open http:\/\/localhost:\d+ in your browser/);
      expect(output).toContain(`http://localhost:${port}`);
      expect(output).toContain('sandbox');

      const health = await fetch(`http://localhost:${port}/readyz`);
      expect(health.status).toBe(200);

      const exited = once(child, 'exit');
      const shutdownLog = waitForOutput(child, /shutting down/);
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(await shutdownLog).toContain('SIGTERM');
    },
    STARTED_WITHIN_MS + 10_000,
  );

  it(
    'refuses to start with invalid configuration and names the problem',
    async () => {
      child = spawn(process.execPath, [mainPath], {
        env: { ...process.env, PORT: 'not-a-port' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output = waitForOutput(child, /PORT/);
      const [code] = await once(child, 'exit');
      expect(code).toBe(1);
      expect(await output).toContain('Invalid configuration');
    },
    STARTED_WITHIN_MS,
  );
});
