/** The run's figures: the closing table against the targets, and the JSON line CI reads. */

import type { Options } from './options.ts';
import type { apiPhase } from './phases/api.ts';
import type { burstPhase } from './phases/burst.ts';
import type { initialSyncPhase } from './phases/initial-sync.ts';
import type { latencyPhase } from './phases/latency.ts';
import type { queuePhase } from './phases/queue.ts';
import type { quickEditsPhase } from './phases/quick-edits.ts';
import type { Quota } from './phases/quota.ts';
import type { Host } from './processes.ts';
import { log, phase, reads, writes } from './report.ts';
import { now, ratio, round, table } from './stats.ts';

const TARGETS = {
  latencyP95Ms: 1000,
  /** At 20 ms per provider call: a change of a burst is written in about the time of its own calls. */
  burstLatencyP95Ms: 300,
  readsPerChange: 1,
  writesPerChange: 1,
  writesPerEcho: 0,
  ackP99Ms: 250,
  initialSyncSeconds: 60,
  apiP99Ms: 50,
};

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export type PhaseResults = {
  latency: Result<typeof latencyPhase>;
  quickEdits: Result<typeof quickEditsPhase>;
  burst: Result<typeof burstPhase>;
  queue: Result<typeof queuePhase>;
  api: Result<typeof apiPhase>;
  initialSync: Result<typeof initialSyncPhase>;
  quota: Quota | null;
};

export type Figures = ReturnType<typeof figuresOf>;

/** The figures of the run, in the order of the JSON line (its keys are read by CI: keep them). */
export function figuresOf(results: PhaseResults, options: Options, peakRssMb: number, benchStarted: number) {
  const { latency, quickEdits, burst, queue, api, initialSync, quota } = results;
  const floorMs = latencyFloorMs(latency, options.latencyMs);
  const overFloor = (figure: number) => (floorMs > 0 ? round(figure / floorMs, 1) : null);
  return {
    latencyMs: { p50: latency.latency.p50, p95: latency.latency.p95, p99: latency.latency.p99 },
    burstLatencyMs: { p50: quickEdits.latency.p50, p95: quickEdits.latency.p95, p99: quickEdits.latency.p99 },
    latencyFloorMs: floorMs,
    latencyOverFloor: { p50: overFloor(latency.latency.p50), p95: overFloor(latency.latency.p95) },
    burstLatencyOverFloor: { p50: overFloor(quickEdits.latency.p50), p95: overFloor(quickEdits.latency.p95) },
    callsPerBurstChange: quickEdits.callsPerEdit,
    burstUnwritten: quickEdits.unwritten,
    quota,
    readsPerChange: round(ratio(reads(latency.changeCalls), latency.written), 2),
    writesPerChange: round(ratio(writes(latency.changeCalls), latency.written), 2),
    readsPerEcho: round(ratio(reads(latency.echoCalls), latency.withEcho), 2),
    writesPerEcho: round(ratio(writes(latency.echoCalls), latency.withEcho), 2),
    ackP99Ms: burst.ackP99Ms,
    ackAsSentP99Ms: burst.ackAsSentP99Ms,
    ackInAppP99Ms: burst.ackInAppP99Ms,
    ackFloorP99Ms: burst.ackFloorP99Ms,
    // The acknowledgement as the sender saw it, against the same burst to a server that answers at once.
    ackOverFloor: burst.ackFloorP99Ms > 0 ? round(burst.ackAsSentP99Ms / burst.ackFloorP99Ms, 1) : null,
    statementsPerRun: latency.statements.p50,
    statementsOfRuns: {
      ownP50: latency.statements.ownP50,
      ownP95: latency.statements.ownP95,
      changeRunsP50: latency.statements.changeRuns.p50,
      otherRunsP50: latency.statements.otherRuns.p50,
      fetchesPerJob: latency.statements.fetchesPerJob,
    },
    cpuMsPerRun: latency.cpuMsPerRun,
    burstNotifications: burst.notifications,
    initialSyncSeconds: round(initialSync.initialSyncSeconds, 1),
    jobsPerSecond: round(queue.jobsPerSecond, 1),
    peakRssMb: round(peakRssMb, 0),
    apiP99Ms: Math.max(api.currentUserP99Ms, api.settingsPatchP99Ms),
    database: options.db,
    calendar: options.calendar,
    users: options.users,
    providerLatencyMs: options.latencyMs,
    quick: options.quick,
    changes: latency.changes,
    unwritten: latency.changes - latency.written,
    inconsistentUsers: burst.inconsistentUsers,
    api: { currentUserP99Ms: api.currentUserP99Ms, settingsPatchP99Ms: api.settingsPatchP99Ms },
    benchSeconds: round((now() - benchStarted) / 1000, 0),
  };
}

/**
 * The least a change can take once the provider acknowledged it: the app's provider calls on its path
 * (the read of the changed side, the write to the other; one after the other) at the latency the
 * emulators add to each. Our figures are reported as multiples of it ("close to the limit" as a number).
 */
function latencyFloorMs(latency: PhaseResults['latency'], latencyMs: number): number {
  const callsOnPath = ratio(reads(latency.changeCalls) + writes(latency.changeCalls), latency.written);
  return round(callsOnPath * latencyMs, 1);
}

const check = (met: boolean) => (met ? 'yes' : 'NO');
/** A row of a figure with a target: measured, the target, and whether it is met. */
const targetRow = (figure: string, measured: string, target: string, met: boolean) => [
  figure,
  measured,
  target,
  check(met),
];
/** A row of a figure without a target. */
const plainRow = (figure: string, measured: string) => [figure, measured, '-', ''];

export function printSummary(figures: Figures, options: Options) {
  phase('Summary');
  const { latencyMs, burstLatencyMs, api } = figures;
  log(
    table(
      ['figure', 'measured', 'target', 'met'],
      [
        targetRow(
          'change to other side written',
          `p50 ${latencyMs.p50} / p95 ${latencyMs.p95} / p99 ${latencyMs.p99} ms`,
          `p95 <= ${TARGETS.latencyP95Ms} ms`,
          latencyMs.p95 <= TARGETS.latencyP95Ms,
        ),
        [
          'quick edits (0.2-3 s apart): change written',
          `p50 ${burstLatencyMs.p50} / p95 ${burstLatencyMs.p95} / p99 ${burstLatencyMs.p99} ms`,
          `p95 <= ${TARGETS.burstLatencyP95Ms} ms at 20 ms a call`,
          options.latencyMs === 20 ? check(burstLatencyMs.p95 <= TARGETS.burstLatencyP95Ms) : '',
        ],
        plainRow('  provider calls per quick edit (with its echo)', String(figures.callsPerBurstChange)),
        plainRow(
          'latency floor: provider calls on a change path x set latency',
          `${figures.latencyFloorMs} ms; changes p50 ${figures.latencyOverFloor.p50}x / p95 ${figures.latencyOverFloor.p95}x, ` +
            `quick edits p50 ${figures.burstLatencyOverFloor.p50}x / p95 ${figures.burstLatencyOverFloor.p95}x`,
        ),
        targetRow(
          'provider reads per change',
          String(figures.readsPerChange),
          `<= ${TARGETS.readsPerChange}`,
          figures.readsPerChange <= TARGETS.readsPerChange,
        ),
        targetRow(
          'provider writes per change',
          String(figures.writesPerChange),
          `<= ${TARGETS.writesPerChange}`,
          figures.writesPerChange <= TARGETS.writesPerChange,
        ),
        plainRow('provider reads per echo', String(figures.readsPerEcho)),
        targetRow(
          'provider writes per echo',
          String(figures.writesPerEcho),
          `${TARGETS.writesPerEcho}`,
          figures.writesPerEcho === TARGETS.writesPerEcho,
        ),
        targetRow(
          `webhook ack p99 (burst of ${figures.burstNotifications}), request written to answer sent`,
          `${figures.ackP99Ms} ms`,
          `<= ${TARGETS.ackP99Ms} ms`,
          figures.ackP99Ms <= TARGETS.ackP99Ms,
        ),
        plainRow('  the same, as the sender saw it', `${figures.ackAsSentP99Ms} ms`),
        plainRow('  the same, inside the app', `${figures.ackInAppP99Ms} ms`),
        plainRow(
          '  the same burst to a server doing nothing',
          `${figures.ackFloorP99Ms} ms (the app's as sent: ${figures.ackOverFloor}x of it)`,
        ),
        targetRow(
          `initial sync (${options.initialTasks} tasks + ${options.initialEvents} events)`,
          `${figures.initialSyncSeconds} s`,
          `<= ${TARGETS.initialSyncSeconds} s`,
          figures.initialSyncSeconds <= TARGETS.initialSyncSeconds,
        ),
        plainRow(
          "SQL statements per synced run (p50, with its job's fetch and completion)",
          `${figures.statementsPerRun}; runs that wrote ${figures.statementsOfRuns.changeRunsP50} + 2, ` +
            `the others ${figures.statementsOfRuns.otherRunsP50} + 2`,
        ),
        plainRow(
          'CPU per run (latency phase)',
          `app ${figures.cpuMsPerRun.app} ms` +
            (figures.cpuMsPerRun.database === null
              ? ' (embedded database included)'
              : `, PostgreSQL ${figures.cpuMsPerRun.database} ms (the whole server)`),
        ),
        plainRow('sync jobs per second', String(figures.jobsPerSecond)),
        plainRow('peak RSS (app process)', `${figures.peakRssMb} MB`),
        targetRow(
          'JSON API p99 at 200 req/s',
          `${api.currentUserP99Ms} ms GET current_user, ${api.settingsPatchP99Ms} ms PATCH settings`,
          `<= ${TARGETS.apiP99Ms} ms`,
          figures.apiP99Ms <= TARGETS.apiP99Ms,
        ),
      ],
    ),
  );
  if (figures.unwritten > 0 || figures.inconsistentUsers > 0) {
    log(
      `WARNING: ${figures.unwritten} changes never written; ${figures.inconsistentUsers} users out of sync`,
    );
  }
}

/** The app's SQL statements by time spent over the whole run (`--sql-profile`). */
export async function printSqlProfile(host: Host) {
  phase('SQL statements by time spent (the whole run)');
  const statements = await host.call('sqlStats', { limit: 40 });
  log(
    table(
      ['ms', 'count', 'rows', 'mean ms', 'max ms', 'statement'],
      statements.map((entry) => [
        String(round(entry.totalMs, 0)),
        String(entry.count),
        String(entry.rows),
        String(round(entry.meanMs, 2)),
        String(round(entry.maxMs, 1)),
        entry.sql,
      ]),
    ),
  );
}
