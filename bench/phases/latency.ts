import type { Actor, ChangeKind } from '../actors.ts';
import { changeLegs } from '../change-legs.ts';
import { cpuLine, cpuShares, readCpu } from '../cpu-shares.ts';
import type { Bench } from '../processes.ts';
import { callsLine, concurrencyLine, describe, log, ms, phase, reads, sum, sumCounts } from '../report.ts';
import {
  everyUserAtOnce,
  isWritten,
  observe,
  runsAround,
  type Sample,
  slowest,
  writtenAfter,
} from '../samples.ts';
import { distribution, now, ratio, round, sleep } from '../stats.ts';

const KINDS: ChangeKind[] = ['task-move', 'event-move', 'task-add'];

/** Every user at once, each making one change at a time and waiting for it to be synced. */
async function makeChanges(bench: Bench, actors: Actor[]) {
  const samples: Sample[] = [];
  await everyUserAtOnce(actors, 1000, async (actor, random, index) => {
    for (let change = 0; change < bench.options.changesPerUser; change++) {
      const kind = KINDS[(index + change) % KINDS.length] as ChangeKind;
      const made = await actor.change(kind, Math.floor(random() * 1000), random);
      samples.push(await observe(bench.host, made));
      // A person's next edit comes a moment later (after the echo of this one has been handled).
      await sleep(1000 + random() * 2000);
    }
  });
  return samples;
}

/** How long a change takes to reach the other side, and the provider calls for it and for its echo. */
export async function latencyPhase(bench: Bench, actors: Actor[]) {
  phase('Latency: one change at a time per user, all users at once');
  const started = now();
  const cpuBefore = await readCpu(bench);
  const samples = await makeChanges(bench, actors);
  const cpu = cpuShares(cpuBefore, await readCpu(bench));
  const latencyWindow = await bench.host.call('window', { from: started, to: now() });
  const written = samples.filter(isWritten);
  const latency = distribution(written.map(writtenAfter));
  const withEcho = written.filter((sample) => sample.seen.echoSeen && sample.seen.settledAt !== null);
  const changeCalls = sumCounts(written.map((sample) => sample.seen.change));
  const echoCalls = sumCounts(withEcho.map((sample) => sample.seen.echo));
  log(
    `${samples.length} changes in ${round((now() - started) / 1000)} s; written ${written.length}, ` +
      `never written ${samples.length - written.length}, echo handled ${withEcho.length}`,
  );
  for (const kind of KINDS) {
    const d = distribution(written.filter((sample) => sample.change.kind === kind).map(writtenAfter));
    log(`  ${kind.padEnd(10)} ${describe(d)} (n=${d.count})`);
  }
  log(`  all        ${describe(latency)}`);
  // The slowest changes, with the user's runs around them (times from the change's acknowledgement).
  for (const sample of slowest(written, 3)) {
    log(
      `  slow: ${sample.change.kind} written after ${ms(writtenAfter(sample))}; runs (s): ${runsAround(sample)}`,
    );
  }
  // A change carried over by more than one read: which runs read what (times from the acknowledgement).
  const extraReads = written.filter((sample) => reads(sample.seen.change) > 1);
  log(`  changes carried over with more than one read: ${extraReads.length} of ${written.length}`);
  for (const sample of extraReads.slice(0, 3)) {
    log(`    ${sample.change.kind}: runs (s): ${runsAround(sample)}`);
  }
  log(
    `  runs per change ${round(ratio(sum(written.map((s) => s.seen.changeRuns)), written.length), 2)}, ` +
      `per echo ${round(ratio(sum(withEcho.map((s) => s.seen.echoRuns)), withEcho.length), 2)}; ` +
      `synced runs took ${describe(latencyWindow.runs.durations)}`,
  );
  log(`  over the phase, ${cpuLine(cpu, bench.options.db === 'postgres')}`);
  log(`  ${concurrencyLine(latencyWindow.concurrency)}`);
  const legs = await changeLegs(bench.host, written);
  log(
    `  where a change's time went (${legs.matched} matched to their run's job): until queued ` +
      `${describe(legs.toQueue)}; in the queue ${describe(legs.inQueue)}; in the run until written ${describe(legs.inRun)}`,
  );
  log(`  per change: ${callsLine(changeCalls, written.length)}`);
  log(`  per echo:   ${callsLine(echoCalls, withEcho.length)}`);
  return {
    latency,
    changes: samples.length,
    written: written.length,
    withEcho: withEcho.length,
    changeCalls,
    echoCalls,
  };
}
