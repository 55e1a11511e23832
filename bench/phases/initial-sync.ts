import type { BenchUser } from '../bench-users.ts';
import { type Bench, waitQuiet } from '../processes.ts';
import { callsLine, describe, log, phase, reads, writes } from '../report.ts';
import { now, round } from '../stats.ts';
import { jsonPatchHeaders } from './api.ts';

/**
 * One user with `initialTasks` tasks and `initialEvents` events switches sync on: how long until both
 * sides are mirrored, and what the echo of all those writes costs.
 */
export async function initialSyncPhase(bench: Bench) {
  const { host, emulators, origins, options } = bench;
  phase(`Initial sync: one user with ${options.initialTasks} tasks and ${options.initialEvents} events`);
  const started = now();
  const [heavy] = (await host.call('createUsers', {
    prefix: 'initial',
    count: 1,
    timeboxedTasks: options.initialTasks,
    plainTasks: 0,
    uncolouredEvents: options.initialEvents,
    colouredEvents: 0,
    syncOn: false,
    concurrency: 1,
  })) as [BenchUser];
  log(
    `seeded in ${round((now() - started) / 1000)} s: every task timeboxed and every event ` +
      `${options.calendar === 'microsoft' ? 'of the synced category' : 'uncoloured'} and ` +
      'from tomorrow on, so everything is mirrored (the most work an initial sync of this size can be)',
  );
  const switchedOnAt = now();
  const switched = await fetch(`${origins.app}/api/settings/onsyncactive`, {
    method: 'PATCH',
    headers: jsonPatchHeaders(heavy.sid),
    body: JSON.stringify({ setting: true }),
  });
  if (!switched.ok) throw new Error(`switching sync on answered ${switched.status}`);
  const firstRun = await host.call('waitForRun', {
    userId: heavy.userId,
    after: switchedOnAt,
    timeoutMs: 900_000,
  });
  if (!firstRun) throw new Error('the initial sync did not finish within 15 minutes');
  const initialSyncSeconds = (firstRun.end - switchedOnAt) / 1000;
  const links = await host.call('linkCount', { userId: heavy.userId });
  log(
    `synced ${round(initialSyncSeconds, 2)} s after switching on (run ${round((firstRun.end - firstRun.start) / 1000, 2)} s, ` +
      `queue ${round(firstRun.start - switchedOnAt)} ms); ${links} pairs linked (expected ${options.initialTasks + options.initialEvents})`,
  );
  log(`  calls: ${callsLine(firstRun.calls)}`);
  const echoStart = firstRun.end;
  const echoIdle = await waitQuiet(bench, [heavy.userId], 600_000);
  const initialEcho = await host.call('window', { from: echoStart, to: now() });
  const notified = await emulators.call('acks', { from: switchedOnAt, to: now() });
  log(
    `  its echo (${notified.acks.count} notifications, ack ${describe(notified.acks)}) handled ` +
      `${round((now() - echoStart) / 1000, 2)} s after the run` +
      `${echoIdle.idle ? '' : ' (timed out)'} with ${reads(initialEcho.calls)} reads and ${writes(initialEcho.calls)} writes`,
  );
  return { initialSyncSeconds };
}
