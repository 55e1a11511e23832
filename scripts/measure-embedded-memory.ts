import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/**
 * The embedded default's memory, as docs/performance.md reports it: the app started on a new data
 * directory as `npm start` starts it (`node <its options> src/server/main.ts`, sandbox, the prepared
 * template copied in) against bare PGlite opening the same database (open, `select 1`), each in a
 * child process of its own. Bare PGlite is opened twice: with PGlite's defaults, and with the settings
 * the app opens it with (src/server/db/pglite-options.ts). The app's figures are read 3 s after `/`
 * and `/api/current_user` were loaded, PGlite's 3 s after its `select 1`. Peak: the child's VmHWM;
 * at rest: its VmRSS then.
 *
 *   npm run build:database && npm run build:web   (once: the template and the page)
 *   node scripts/measure-embedded-memory.ts [--runs=2] [--only=app|bare] [--breakdown]
 *     [--no-start-options] [--node-option=--max-semi-space-size=8 ...] [--env=NAME=value ...]
 *
 * --breakdown preloads scripts/memory-usage-preload.ts in the app (V8 heap and its spaces, external,
 * the WebAssembly memory). --no-start-options leaves out the node options of package.json's `start`;
 * --node-option adds one to every child; --env adds to the app's environment (e.g. a provider's
 * credentials: no emulators).
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const REST_MS = 3_000;

const args = process.argv.slice(2);
const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const repeated = (name: string) =>
  args.filter((arg) => arg.startsWith(`--${name}=`)).map((arg) => arg.slice(name.length + 3));
const extraEnv = Object.fromEntries(repeated('env').map((pair) => pair.split(/=(.*)/s).slice(0, 2)));

/** The bare-PGlite child: `node scripts/measure-embedded-memory.ts --bare-pglite <dataDir> [app]`. */
async function bareChild(dataDir: string, settings: string | undefined): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { embeddedPgliteOptions } = await import('#server/db/pglite-options.ts');
  const db = await PGlite.create(dataDir, settings === 'app' ? embeddedPgliteOptions() : {});
  await db.query('select 1');
  process.stdout.write('ready\n');
  setInterval(() => {}, 60_000); // held open until the parent ends it
}

type Figures = { peakMb: number; restMb: number; breakdown?: string };

/** The node options `npm start` runs the app with (package.json's `start`). */
async function startOptions(): Promise<string[]> {
  if (args.includes('--no-start-options')) return [];
  const { scripts } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const match = /\bnode((?: --\S+)*) src\/server\/main\.ts/.exec(scripts.start);
  if (!match) throw new Error('package.json: `start` does not run node src/server/main.ts');
  return (match[1] as string).split(' ').filter(Boolean);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** VmHWM (the peak) and VmRSS of a running process, in MB. */
async function memoryOf(pid: number): Promise<Figures> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { peakMb: Math.round(kb('VmHWM') / 1024), restMb: Math.round(kb('VmRSS') / 1024) };
}

function run(argv: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [...repeated('node-option'), ...argv], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
}

async function waitFor(ready: () => Promise<boolean>, child: ChildProcess, output: () => string) {
  for (let tries = 0; tries < 600; tries++) {
    if (child.exitCode !== null) throw new Error(`the child exited:\n${output().slice(-3000)}`);
    if (await ready().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`the child did not become ready:\n${output().slice(-3000)}`);
}

/** A minimal environment: sandbox mode, nothing of the caller's provider or database settings. */
const baseEnv = () => ({ NODE_ENV: 'development' });

async function measureApp(dataDir: string): Promise<Figures> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const breakdown = args.includes('--breakdown');
  const preload = breakdown ? ['--expose-gc', '--import', './scripts/memory-usage-preload.ts'] : [];
  const { child, output } = run([...(await startOptions()), ...preload, 'src/server/main.ts'], {
    ...baseEnv(),
    PORT: String(port),
    PGLITE_DATA_DIR: dataDir,
    ...extraEnv,
  });
  try {
    await waitFor(async () => (await fetch(`${origin}/readyz`)).ok, child, output);
    for (const path of ['/', '/api/current_user']) await (await fetch(`${origin}${path}`)).arrayBuffer();
    await sleep(REST_MS);
    const figures = await memoryOf(child.pid as number);
    if (breakdown) {
      const before = output().length;
      child.kill('SIGUSR2');
      await waitFor(async () => /memory-usage .*\n/.test(output().slice(before)), child, output);
      figures.breakdown = /memory-usage (.*)/.exec(output().slice(before))?.[1];
    }
    return figures;
  } finally {
    await stop(child);
  }
}

async function measureBare(dataDir: string, settings: 'defaults' | 'app'): Promise<Figures> {
  const { embeddedTemplateDir } = await import('#server/db/embedded-template.ts');
  await cp(join(root, embeddedTemplateDir()), dataDir, { recursive: true });
  const argv = ['scripts/measure-embedded-memory.ts', '--bare-pglite', dataDir, settings];
  const { child, output } = run(argv, baseEnv());
  try {
    await waitFor(async () => output().includes('ready\n'), child, output);
    await sleep(REST_MS);
    return await memoryOf(child.pid as number);
  } finally {
    await stop(child);
  }
}

async function main(): Promise<void> {
  const runs = Number(option('runs') ?? 2);
  const only = option('only');
  const measures: Record<string, (dir: string) => Promise<Figures>> = {
    ...(only !== 'bare' && { app: measureApp }),
    ...(only !== 'app' && {
      'bare PGlite, defaults': (dir: string) => measureBare(dir, 'defaults'),
      "bare PGlite, app's settings": (dir: string) => measureBare(dir, 'app'),
    }),
  };
  const results: Record<string, Figures[]> = Object.fromEntries(
    Object.keys(measures).map((name) => [name, []]),
  );
  console.log(`app started with: node ${(await startOptions()).join(' ')} src/server/main.ts`);
  for (let i = 0; i < runs; i++) {
    const dir = await mkdtemp(join(tmpdir(), 'timeboxer-memory-'));
    try {
      for (const [name, measure] of Object.entries(measures)) {
        const figures = await measure(join(dir, name.replace(/\W+/g, '-')));
        results[name]?.push(figures);
        const extra = figures.breakdown ? `  ${figures.breakdown}` : '';
        console.log(`run ${i + 1}  ${name}: peak ${figures.peakMb} MB, at rest ${figures.restMb} MB${extra}`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const range = (values: number[]) =>
    Math.min(...values) === Math.max(...values)
      ? `${values[0]}`
      : `${Math.min(...values)}–${Math.max(...values)}`;
  const mean = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  console.log();
  for (const [name, list] of Object.entries(results)) {
    const peak = list.map((f) => f.peakMb);
    const rest = list.map((f) => f.restMb);
    const app = results.app ?? [];
    const above =
      name === 'app' || app.length === 0
        ? ''
        : `; the app above it (means): peak ${mean(app.map((f) => f.peakMb)) - mean(peak)} MB, ` +
          `at rest ${mean(app.map((f) => f.restMb)) - mean(rest)} MB`;
    console.log(`${name}: peak ${range(peak)} MB, at rest ${range(rest)} MB${above}`);
  }
}

const bareAt = args.indexOf('--bare-pglite');
await (bareAt >= 0 ? bareChild(args[bareAt + 1] as string, args[bareAt + 2]) : main());
