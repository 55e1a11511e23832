import type { Options } from '../options.ts';
import { calendarName, log, phase } from '../report.ts';
import { distribution, ratio, round, table } from '../stats.ts';
import type { LiveChange } from './live-changes.ts';
import type { ProcessFigures, WaveResult } from './wave.ts';

/** Live p95 during the wave, and the wave's length against the reconcile period (15 minutes). */
const LIVE_P95_TARGET_MS = 2000;
const RECONCILE_PERIOD_SECONDS = 15 * 60;

type ScaleRun = {
  options: Options;
  users: number;
  first: WaveResult;
  wave: WaveResult;
  changes: LiveChange[];
  database: { appBytes: number; totalBytes: number };
  benchSeconds: number;
};

type WaveFigures = {
  seconds: number;
  /** Its runs: seconds waiting once due, and running (p50 and p95). */
  runWaitSeconds: { p50: number; p95: number };
  runSeconds: { p50: number; p95: number };
  runs: number;
  runsPerSecond: number;
  maxQueueDepth: number;
  maxOldestWaitingSeconds: number;
};

const pair = (values: { p50: number; p95: number }) => ({
  p50: round(values.p50, 2),
  p95: round(values.p95, 2),
});

const waveFigures = (wave: WaveResult): WaveFigures => ({
  seconds: round(wave.seconds, 1),
  runWaitSeconds: pair(wave.runTimes.waitedSeconds),
  runSeconds: pair(wave.runTimes.ranSeconds),
  runs: wave.runs,
  runsPerSecond: round(wave.runsPerSecond, 1),
  maxQueueDepth: wave.maxQueueDepth,
  maxOldestWaitingSeconds: round(wave.maxOldestWaitingSeconds, 1),
});

/** The figures of a scale run, as printed and as the JSON line's `scale`. */
export type ScaleFigures = Omit<WaveFigures, 'seconds'> & {
  users: number;
  latencyMs: number;
  spreadSeconds: number;
  workers: number;
  liveUsers: number;
  /** Changes acknowledged during the wave, and of them those not written within a minute. */
  liveChanges: number;
  liveNeverWritten: number;
  liveP50Ms: number;
  liveP95Ms: number;
  liveP99Ms: number;
  liveMaxMs: number;
  /** The provider calls on a change's path times the latency set on each. */
  latencyFloorMs: number;
  liveOverFloor: { p50: number; p95: number };
  waveSeconds: number;
  /** The wave of every user's first run (full reads, a push channel each), before the measured one. */
  firstWave: WaveFigures;
  providerCallsPerRun: { todoist: number; calendar: number };
  /** The app's tables per user; the whole database (the job queue's too) per user. */
  dbBytesPerUser: number;
  dbTotalBytesPerUser: number;
  processes: ProcessFigures[];
  emulatorsCpuPercent: number;
  cpuMsPerRun: WaveResult['cpuMsPerRun'];
  benchSeconds: number;
};

export function scaleFigures(run: ScaleRun): ScaleFigures {
  const { wave, changes, options } = run;
  const during = changes.filter((change) => change.ackAt >= wave.startedAt && change.ackAt <= wave.endedAt);
  const written = during.flatMap((change) =>
    change.writtenAt === null ? [] : [change.writtenAt - change.ackAt],
  );
  const live = distribution(written);
  // A change's path: the app reads Todoist (the webhook's side), then writes the event to the calendar.
  const floorMs = 2 * options.latencyMs;
  const perRun = (calls: number) => round(ratio(calls, wave.runs), 2);
  const measured = waveFigures(wave);
  return {
    users: run.users,
    latencyMs: options.latencyMs,
    spreadSeconds: options.spreadSeconds,
    workers: wave.processes.filter((process) => process.role === 'worker').length,
    liveUsers: new Set(changes.map((change) => change.userId)).size,
    liveChanges: during.length,
    liveNeverWritten: during.length - written.length,
    liveP50Ms: round(live.p50, 0),
    liveP95Ms: round(live.p95, 0),
    liveP99Ms: round(live.p99, 0),
    liveMaxMs: round(live.max, 0),
    latencyFloorMs: floorMs,
    liveOverFloor: { p50: round(live.p50 / floorMs, 2), p95: round(live.p95 / floorMs, 2) },
    waveSeconds: measured.seconds,
    runWaitSeconds: measured.runWaitSeconds,
    runSeconds: measured.runSeconds,
    runs: measured.runs,
    runsPerSecond: measured.runsPerSecond,
    maxQueueDepth: measured.maxQueueDepth,
    maxOldestWaitingSeconds: measured.maxOldestWaitingSeconds,
    firstWave: waveFigures(run.first),
    providerCallsPerRun: {
      // The benchmark's own adds are Todoist calls too: left out.
      todoist: perRun(wave.calls.todoist - during.length),
      calendar: perRun(wave.calls.calendar),
    },
    dbBytesPerUser: Math.round(run.database.appBytes / run.users),
    dbTotalBytesPerUser: Math.round(run.database.totalBytes / run.users),
    processes: wave.processes,
    emulatorsCpuPercent: wave.emulatorsCpuPercent,
    cpuMsPerRun: wave.cpuMsPerRun,
    benchSeconds: round(run.benchSeconds, 0),
  };
}

export function printScale(f: ScaleFigures) {
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  phase('Scale: figures');
  log(
    table(
      ['figure', 'value', 'target'],
      [
        [
          'live changes during the wave: p50 / p95 / p99 / max',
          `${f.liveP50Ms} / ${f.liveP95Ms} / ${f.liveP99Ms} / ${f.liveMaxMs} ms (n=${f.liveChanges}, ${f.liveUsers} users)`,
          `p95 ≤ ${LIVE_P95_TARGET_MS} ms, all written: ${met(f.liveP95Ms <= LIVE_P95_TARGET_MS && f.liveNeverWritten === 0)}`,
        ],
        ['  never written', String(f.liveNeverWritten), '0'],
        [
          '  latency floor (Todoist read + calendar write); ours as multiples',
          `${f.latencyFloorMs} ms; p50 ${f.liveOverFloor.p50}×, p95 ${f.liveOverFloor.p95}×`,
          '–',
        ],
        [
          'reconcile wave: duration, runs, runs/s',
          `${f.waveSeconds} s, ${f.runs}, ${f.runsPerSecond}`,
          `≤ ${RECONCILE_PERIOD_SECONDS} s: ${met(f.waveSeconds <= RECONCILE_PERIOD_SECONDS)}`,
        ],
        ['  queue depth max, oldest waiting max', `${f.maxQueueDepth}, ${f.maxOldestWaitingSeconds} s`, '–'],
        [
          '  a run: waiting once due, running (p50 / p95)',
          `${f.runWaitSeconds.p50} / ${f.runWaitSeconds.p95} s, ${f.runSeconds.p50} / ${f.runSeconds.p95} s`,
          '–',
        ],
        [
          "first wave (every user's first run): duration, runs, runs/s",
          `${f.firstWave.seconds} s, ${f.firstWave.runs}, ${f.firstWave.runsPerSecond}; a run ${f.firstWave.runSeconds.p50} / ${f.firstWave.runSeconds.p95} s`,
          '–',
        ],
        [
          `provider calls per run in the wave: Todoist, ${calendarName.label}`,
          `${f.providerCallsPerRun.todoist}, ${f.providerCallsPerRun.calendar}`,
          '–',
        ],
        [
          'database per user: app tables, whole database',
          `${f.dbBytesPerUser} B, ${f.dbTotalBytesPerUser} B`,
          '–',
        ],
        ...f.processes.map((process) => [
          `${process.role} process: CPU in the wave, RSS now / peak`,
          `${process.cpuPercent}% of a core, ${process.rssMb} / ${process.peakRssMb} MB`,
          '–',
        ]),
        ['emulators process: CPU in the wave', `${f.emulatorsCpuPercent}% of a core`, '–'],
        [
          'CPU per run in the wave: workers, web, PostgreSQL, emulators, benchmark; machine',
          `${f.cpuMsPerRun.workers}, ${f.cpuMsPerRun.web}, ${f.cpuMsPerRun.postgres}, ${f.cpuMsPerRun.emulators}, ` +
            `${f.cpuMsPerRun.bench}; ${f.cpuMsPerRun.machine} ms`,
          '–',
        ],
      ],
    ),
  );
  log(`the run took ${f.benchSeconds} s`);
}
