import type pg from 'pg';
import type { Emulators, Origins } from '../processes.ts';
import { emulatorRequests } from '../processes.ts';
import { log } from '../report.ts';
import { now, round, sleep } from '../stats.ts';
import { type AppProcesses, lanesOf, machineBusyMs, postgresCpuMs, usageOf } from './app-processes.ts';
import { type QueueSample, runTimes, sampleQueue, watchQueue } from './queue-watch.ts';

/** The longest a wave may take before the run gives up. */
const WAVE_TIMEOUT_MS = 20 * 60_000;

export type ProcessFigures = { role: string; cpuPercent: number; rssMb: number; peakRssMb: number };

/** One reconcile wave: how long it took, how the queue looked meanwhile, what it cost. */
export type WaveResult = {
  startedAt: number;
  endedAt: number;
  seconds: number;
  /** Runs completed in the wave (the live changes' runs too). */
  runs: number;
  runsPerSecond: number;
  maxQueueDepth: number;
  maxOldestWaitingSeconds: number;
  timeline: QueueSample[];
  /** The runs that ended in the wave: seconds from due to started, and from started to done. */
  runTimes: Awaited<ReturnType<typeof runTimes>>;
  /** Requests the emulators served in the wave (the benchmark's own included). */
  calls: { todoist: number; calendar: number };
  /** Each app process's CPU (percent of one core) over the wave and its memory. */
  processes: ProcessFigures[];
  emulatorsCpuPercent: number;
  /** Where the machine's CPU went in the wave, per run (ms): each kind of process, and all of it. */
  cpuMsPerRun: {
    workers: number;
    web: number;
    postgres: number;
    emulators: number;
    bench: number;
    machine: number;
  };
};

type WaveContext = { client: pg.Client; apps: AppProcesses; emulators: Emulators; origins: Origins };

type Lanes = Awaited<ReturnType<typeof lanesOf>>;

const queueLine = (from: number, sample: QueueSample, runsPerSecond: number, lanes: Lanes[]) =>
  `  ${String(round((sample.at - from) / 1000, 0)).padStart(4)} s: waiting ${sample.waiting}, ` +
  `running ${sample.active}, oldest waiting ${round(sample.oldestWaitingSeconds, 1)} s, ` +
  `reconcile runs left ${sample.reconcileLeft}, ${round(runsPerSecond, 0)} runs/s; workers' lanes open/busy ` +
  `${lanes.map((lane) => `${lane.open}/${lane.busy} (loop ${round(lane.loopLoad, 2)})`).join(', ')}`;

/**
 * Starts a reconcile wave (`start`) and waits for its end: the reconcile job done and none of the runs
 * it queued left. `onEnd` is called at that moment. The queue is sampled every second.
 */
export async function runWave(
  context: WaveContext,
  start: () => Promise<void>,
  onEnd: () => void = () => undefined,
): Promise<WaveResult> {
  const { client, apps, emulators, origins } = context;
  const before = await sampleQueue(client);
  const callsBefore = await emulatorRequests(origins);
  const usageBefore = apps.running.map((app) => usageOf(app.pid));
  const emulatorsBefore = (await emulators.call('memory', {})).cpuMs;
  const postgresBefore = postgresCpuMs();
  const machineBefore = machineBusyMs();
  const benchBefore = process.cpuUsage();
  const startedAt = now();
  let last = before;
  const workers = apps.running.filter((app) => app.role === 'worker');
  const watch = watchQueue(client, (sample) => {
    if (sample.at - startedAt > 0 && Math.round((sample.at - startedAt) / 1000) % 10 === 0) {
      const runsPerSecond = (sample.completed - last.completed) / ((sample.at - last.at) / 1000);
      void Promise.all(workers.map(lanesOf)).then(
        (lanes) => log(queueLine(startedAt, sample, runsPerSecond, lanes)),
        () => log(queueLine(startedAt, sample, runsPerSecond, [])),
      );
    }
    last = sample;
  });
  await start();
  for (;;) {
    const sample = watch.samples.at(-1);
    if (sample && sample.at > startedAt + 1000) {
      if (sample.reconcileState === 'failed') throw new Error('the reconcile job failed');
      if (sample.reconcileState === 'completed' && sample.reconcileLeft === 0) break;
    }
    if (now() - startedAt > WAVE_TIMEOUT_MS) throw new Error('the wave did not end within 20 minutes');
    await sleep(250);
  }
  const endedAt = now();
  onEnd();
  await watch.stop();
  const after = await sampleQueue(client);
  const callsAfter = await emulatorRequests(origins);
  const seconds = (endedAt - startedAt) / 1000;
  const cpuPercent = (cpuMs: number) => round((cpuMs / (endedAt - startedAt)) * 100, 0);
  const runs = after.completed - before.completed;
  const timeline = watch.samples;
  const bench = process.cpuUsage(benchBefore);
  const emulatorsMs = (await emulators.call('memory', {})).cpuMs - emulatorsBefore;
  const usageAfter = apps.running.map((app) => usageOf(app.pid));
  const processCpu = (role: string) =>
    apps.running.reduce(
      (sum, app, index) =>
        app.role === role ? sum + (usageAfter[index]?.cpuMs ?? 0) - (usageBefore[index]?.cpuMs ?? 0) : sum,
      0,
    );
  const perRun = (ms: number) => round(ms / Math.max(1, runs), 1);
  return {
    startedAt,
    endedAt,
    seconds,
    runs,
    runsPerSecond: runs / seconds,
    maxQueueDepth: Math.max(0, ...timeline.map((sample) => sample.waiting)),
    maxOldestWaitingSeconds: Math.max(0, ...timeline.map((sample) => sample.oldestWaitingSeconds)),
    timeline,
    runTimes: await runTimes(client, startedAt, endedAt),
    calls: {
      todoist: callsAfter.todoist - callsBefore.todoist,
      calendar: callsAfter.calendar - callsBefore.calendar,
    },
    processes: apps.running.map((app, index) => {
      const usage = usageAfter[index] ?? usageOf(app.pid);
      return {
        role: app.role,
        cpuPercent: cpuPercent(usage.cpuMs - (usageBefore[index]?.cpuMs ?? 0)),
        rssMb: round(usage.rssMb, 0),
        peakRssMb: round(usage.peakRssMb, 0),
      };
    }),
    emulatorsCpuPercent: cpuPercent(emulatorsMs),
    cpuMsPerRun: {
      workers: perRun(processCpu('worker')),
      web: perRun(processCpu('web')),
      postgres: perRun(postgresCpuMs() - postgresBefore),
      emulators: perRun(emulatorsMs),
      bench: perRun((bench.user + bench.system) / 1000),
      machine: perRun(machineBusyMs() - machineBefore),
    },
  };
}
