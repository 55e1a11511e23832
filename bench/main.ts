import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCounterCheck } from './counters.ts';
import { keepStatistics, openDatabase } from './database.ts';
import { cleanUpOnInterrupt } from './interrupt.ts';
import { checkMachine } from './machine.ts';
import { parseOptions } from './options.ts';
import { apiPhase } from './phases/api.ts';
import { burstPhase } from './phases/burst.ts';
import { initialSyncPhase } from './phases/initial-sync.ts';
import { latencyPhase } from './phases/latency.ts';
import { queuePhase } from './phases/queue.ts';
import { quickEditsPhase } from './phases/quick-edits.ts';
import { type Quota, quotaPhase } from './phases/quota.ts';
import { setupPhase } from './phases/setup.ts';
import { BenchProcesses } from './processes.ts';
import { calendarName, log, memoryLine } from './report.ts';
import { scaleBench } from './scale/scale-main.ts';
import { now } from './stats.ts';
import { figuresOf, printSqlProfile, printSummary } from './summary.ts';

/**
 * `npm run bench [-- --db=pglite|postgres] [--users=50] [--latency=20] [--quick] [--profile] [--sql-profile]
 *   [--edits=8] [--quota-minutes=15] [--calendar=google|microsoft]`
 *
 * Three processes: the provider emulators (`latency` ms added to every provider call), the app (web and
 * worker, configured for the emulators as for real providers) and this one, which acts as `users` users
 * with tasks and events and measures the sync end to end through the real path: a change through the
 * user's own Todoist or calendar client (Google Calendar, or Microsoft 365 with `--calendar=microsoft`), the provider's notification, the app's webhook route, the job
 * queue, the worker, and the app's write on the other side. Prints a table, then one JSON line.
 */
async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.scale) return scaleBench(options);
  const benchStarted = now();
  const database = await openDatabase(options.db);
  const statistics = database.options.kind === 'postgres' ? keepStatistics(database.options.url) : null;
  const logFile = join(tmpdir(), `timeboxer-bench-${process.pid}.log`);
  const profileDir = join(process.cwd(), '.data', 'bench-profiles');
  const processes = new BenchProcesses();
  cleanUpOnInterrupt(() => processes.stop().finally(() => database.drop()));

  try {
    calendarName.label = options.calendar === 'microsoft' ? 'Microsoft' : 'Google';
    log(
      `Timeboxer sync benchmark: ${options.users} users with ${options.calendar === 'microsoft' ? 'Microsoft 365' : 'Google Calendar'}, ` +
        `${options.latencyMs} ms added to every provider call, ` +
        `${database.label}${options.quick ? ', quick' : ''}`,
    );
    const machine = checkMachine();
    log(
      `this machine now: ${machine.loopNsPerStep} ns a loop step, ${machine.memoryLatencyNs} ns a dependent ` +
        'load from memory (compare runs only on like figures: see docs/performance.md)',
    );
    log(
      `app log: ${logFile}${options.profile ? `; CPU profiles of the app and the emulators in ${profileDir}` : ''}`,
    );
    const bench = await processes.start(options, database, { logFile, profileDir });
    const { host } = bench;
    const { users, apiUser, everyone, actors } = await setupPhase(bench);
    const checkCounters = await startCounterCheck(bench);

    await memoryLine(host);
    const latency = await latencyPhase(bench, actors);
    await memoryLine(host);
    const quickEdits = await quickEditsPhase(bench, actors, everyone);
    await memoryLine(host);
    const burst = await burstPhase(bench, actors, everyone, checkCounters);
    await memoryLine(host);
    const queue = await queuePhase(
      bench,
      users.map((user) => user.userId),
    );
    await memoryLine(host);
    const api = await apiPhase(bench, apiUser);
    await memoryLine(host);
    const initialSync = await initialSyncPhase(bench);
    let quota: Quota | null = null;
    const quotaActor = actors[0];
    if (options.quotaMinutes > 0 && quotaActor) {
      await memoryLine(host);
      quota = await quotaPhase(bench, quotaActor);
    }

    await memoryLine(host);
    const memory = await host.call('memory', {});
    const figures = figuresOf(
      { latency, quickEdits, burst, queue, api, initialSync, quota },
      options,
      memory.peakRssMb,
      benchStarted,
    );
    printSummary(figures, options);
    if (options.sqlProfile) await printSqlProfile(host);
    await processes.stop();
    await statistics?.stop();
    await database.drop();
    console.log(JSON.stringify({ ...figures, machine }));
  } catch (error) {
    await processes.stop();
    await statistics?.stop();
    await database.drop().catch(() => undefined);
    throw error;
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
