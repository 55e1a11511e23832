import { availableParallelism } from 'node:os';
import type { Bench } from './processes.ts';
import { machineBusyMs, postgresCpuMs } from './scale/app-processes.ts';
import { round } from './stats.ts';

/**
 * Where the machine's CPU went over a phase: the app's process, the emulators', PostgreSQL's (server
 * and backends; none with PGlite, which runs inside the app's process), the benchmark's own and the
 * machine's as a whole. The processes share the machine's cores, so a phase's latency says little
 * without it: a busy machine makes every run wait for a core.
 */
export type CpuReading = {
  at: number;
  app: number;
  emulators: number;
  postgres: number;
  bench: number;
  machine: number;
};

export async function readCpu(bench: Bench): Promise<CpuReading> {
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    app: (await bench.host.call('memory', {})).cpuMs,
    emulators: (await bench.emulators.call('memory', {})).cpuMs,
    postgres: bench.options.db === 'postgres' ? postgresCpuMs() : 0,
    bench: (usage.user + usage.system) / 1000,
    machine: machineBusyMs(),
  };
}

/** The shares between two readings, each in % of one core, and the machine's in % of all its cores. */
export function cpuShares(before: CpuReading, after: CpuReading) {
  const elapsed = after.at - before.at;
  const share = (key: Exclude<keyof CpuReading, 'at'>) =>
    elapsed > 0 ? round((100 * (after[key] - before[key])) / elapsed, 0) : 0;
  return {
    app: share('app'),
    emulators: share('emulators'),
    postgres: share('postgres'),
    bench: share('bench'),
    machine: round(share('machine') / availableParallelism(), 0),
    cores: availableParallelism(),
  };
}

export function cpuLine(shares: ReturnType<typeof cpuShares>, withPostgres: boolean): string {
  return (
    `CPU (% of one core): app process ${shares.app}%, emulators ${shares.emulators}%, ` +
    `${withPostgres ? `PostgreSQL ${shares.postgres}%, ` : ''}this benchmark ${shares.bench}%; ` +
    `the machine ${shares.machine}% busy over its ${shares.cores} cores`
  );
}
