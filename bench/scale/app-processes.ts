import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sleep } from '../stats.ts';

/**
 * The app as deployed: one web process and worker processes (`src/server/main.ts --role=…`) on one
 * PostgreSQL, each a process of its own whose CPU time and memory are read from /proc.
 */

const MAIN = fileURLToPath(new URL('../../src/server/main.ts', import.meta.url));
/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** `metrics`: where the process serves /metrics. */
export type AppProcess = { role: 'web' | 'worker'; pid: number; metrics: string };
export type ProcessUsage = { cpuMs: number; rssMb: number; peakRssMb: number };

/** A free TCP port on localhost (the web process listens there; APP_URL must name it up front). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** CPU time used so far and memory now and at its peak, from /proc (Linux). */
export function usageOf(pid: number): ProcessUsage {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return {
    cpuMs: (ticks * 1000) / TICKS_PER_SECOND,
    rssMb: kb('VmRSS') / 1024,
    peakRssMb: kb('VmHWM') / 1024,
  };
}

/** CPU time of every PostgreSQL process (the server and its backends), from /proc; 0 where unreadable. */
export function postgresCpuMs(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended while being read.
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The machine's CPU time spent busy (all cores, from /proc/stat), and its number of cores. */
export function machineBusyMs(): number {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = (cpu ?? '')
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1000) / TICKS_PER_SECOND;
}

export class AppProcesses {
  private readonly children: { process: ChildProcess; info: AppProcess }[] = [];

  /**
   * Starts a process of `role` and waits until it says it runs (its log line); with `profileDir`, it
   * writes a CPU profile there when it exits.
   */
  async start(
    role: 'web' | 'worker',
    env: Record<string, string>,
    files: { logFile: string; profileDir: string | null },
  ): Promise<AppProcess> {
    const { logFile, profileDir } = files;
    const out = openSync(logFile, 'a');
    const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const metricsPort = await freePort();
    const child = spawn(process.execPath, [...profile, MAIN, `--role=${role}`], {
      env: { ...process.env, ...env, METRICS_PORT: String(metricsPort), METRICS_HOST: 'localhost' },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    if (child.pid === undefined) throw new Error(`the ${role} process did not start`);
    const info: AppProcess = { role, pid: child.pid, metrics: `http://localhost:${metricsPort}/metrics` };
    this.children.push({ process: child, info });
    const ready = role === 'web' ? 'Timeboxer is running at' : 'Timeboxer sync worker is running';
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the ${role} process exited; see ${logFile}`);
      if (readFileSync(logFile, 'utf8').includes(ready)) return info;
      if (Date.now() - started > 60_000) throw new Error(`the ${role} process did not start; see ${logFile}`);
      await sleep(200);
    }
  }

  get running(): AppProcess[] {
    return this.children.map((child) => child.info);
  }

  /** SIGTERM to every process (the app's graceful shutdown), SIGKILL to any still running after 15 s. */
  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(async ({ process: child }) => {
        if (child.exitCode !== null) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    this.children.length = 0;
  }
}

/** A worker's sync lanes and event loop load, from its /metrics. */
export async function lanesOf(app: AppProcess): Promise<{ open: number; busy: number; loopLoad: number }> {
  const text = await (await fetch(app.metrics)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
  return {
    open: value(/^timeboxer_sync_lanes\{state="open"\} (\S+)$/m),
    busy: value(/^timeboxer_sync_lanes\{state="busy"\} (\S+)$/m),
    loopLoad: value(/^timeboxer_event_loop_utilization (\S+)$/m),
  };
}
