import { ackFloor, ackLegs } from '../acks.ts';
import type { Actor } from '../actors.ts';
import { cpuLine, cpuShares, readCpu } from '../cpu-shares.ts';
import { type Bench, waitQuiet } from '../processes.ts';
import { concurrencyLine, describe, log, ms, phase, sum } from '../report.ts';
import { seeded } from '../samples.ts';
import { inBatches, now, round } from '../stats.ts';

/**
 * Every user makes `burstPerUser` changes at the same moment: how fast the app acknowledges the
 * notifications, how busy both processes get, and whether both sides agree once it is quiet.
 * `checkCounters` prints the emulators' counters against the app's calls (see `startCounterCheck`).
 */
export async function burstPhase(
  bench: Bench,
  actors: Actor[],
  everyone: string[],
  checkCounters: () => Promise<void>,
) {
  const { host, emulators, options } = bench;
  phase(`Burst: every user makes ${options.burstPerUser} changes at the same moment`);
  const cpuBefore = await readCpu(bench);
  await host.call('loopDelay', {});
  await emulators.call('loopDelay', {});
  const burstStart = now();
  const burstRandom = seeded(7);
  await Promise.all(
    actors.flatMap((actor) =>
      Array.from({ length: Math.min(options.burstPerUser, actor.pairs.length) }, (_, pair) =>
        actor.change('task-move', pair, burstRandom),
      ),
    ),
  );
  const burstSent = now();
  const burstIdle = await waitQuiet(bench, everyone, 180_000);
  const burstEnd = now();
  const burstCpu = cpuShares(cpuBefore, await readCpu(bench));
  const burst = await host.call('window', { from: burstStart, to: burstEnd });
  const burstLoop = {
    app: await host.call('loopDelay', {}),
    emulators: await emulators.call('loopDelay', {}),
  };
  const burstAcks = await emulators.call('acks', { from: burstStart, to: burstEnd });
  log(
    `${round(burstSent - burstStart)} ms to make the changes; all synced and quiet after ` +
      `${round((burstEnd - burstStart) / 1000, 2)} s${burstIdle.idle ? '' : ' (NOT quiet: timed out)'}`,
  );
  log(
    `  ${burstAcks.acks.count} notifications acknowledged, as sent: ${describe(burstAcks.acks)}; statuses ${JSON.stringify(burstAcks.statuses)}`,
  );
  log(`  ${burst.served.count} in the app's server (request read to answer sent): ${describe(burst.served)}`);
  const legs = ackLegs(burstAcks.deliveries, await host.call('served', { from: burstStart, to: burstEnd }));
  log(
    `  where the time went (${legs.matched} matched by delivery id): sent to read by the app ${describe(legs.toApp)}; ` +
      `answered to seen by the sender ${describe(legs.back)}`,
  );
  log(
    `  from the request written to the socket to the app's answer sent (the sender's own delays left out): ${describe(legs.onWire)}`,
  );
  for (const { group, ...times } of legs.wireToRead) {
    log(`    written to read by the app, ${group}: ${describe(times)}`);
  }
  if (options.calendar === 'microsoft') {
    log(
      "  (Graph's notifications carry no delivery id, so only Todoist's are matched and timed on the wire)",
    );
  }
  log(`  over the burst, ${cpuLine(burstCpu, options.db === 'postgres')}`);
  log(`  ${concurrencyLine(burst.concurrency)}`);
  log(
    `  event loop delay over the burst, p99 / max: app process ${ms(burstLoop.app.p99Ms)} / ${ms(burstLoop.app.maxMs)}, ` +
      `emulators process ${ms(burstLoop.emulators.p99Ms)} / ${ms(burstLoop.emulators.maxMs)}`,
  );
  log(
    `  ${burst.runs.total} runs (${burst.runs.synced} synced, ${burst.runs.retryLater} spaced/deferred, ${burst.runs.other} other); ` +
      `synced runs took ${describe(burst.runs.durations)}`,
  );
  const floor = await ackFloor(emulators, burstAcks.acks.count / 2);
  log(
    `  the same sender, ${floor.count} POSTs at once to a server in another process that answers at once: ` +
      `new connections ${describe(floor.cold)}; kept-alive ${describe(floor.warm)}`,
  );
  const consistency = await inBatches(actors, 10, (actor) => actor.consistency());
  const inconsistentUsers = consistency.filter((entry) => entry.mismatches.length > 0).length;
  log(
    `  both sides agree for ${consistency.length - inconsistentUsers}/${consistency.length} users ` +
      `(${sum(consistency.map((entry) => entry.pairs))} pairs checked)`,
  );
  for (const mismatch of consistency.flatMap((entry) => entry.mismatches).slice(0, 5)) {
    log(`    mismatch: ${mismatch}`);
  }
  await checkCounters();
  return {
    notifications: burstAcks.acks.count,
    // The app's acknowledgement: from the notification written to the app's socket to its answer sent.
    // What the sender saw adds the sender's own delays (its event loop, on the same cores).
    ackP99Ms: legs.onWire.p99,
    ackAsSentP99Ms: burstAcks.acks.p99,
    ackInAppP99Ms: burst.served.p99,
    ackFloorP99Ms: floor.cold.p99,
    inconsistentUsers,
  };
}
