import type { Actor, ChangeKind } from '../actors.ts';
import { changeLegs } from '../change-legs.ts';
import { cpuLine, cpuShares, readCpu } from '../cpu-shares.ts';
import type { Bench } from '../processes.ts';
import type { RunStatements } from '../protocol.ts';
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
  const cpuAfter = await readCpu(bench);
  const cpu = cpuShares(cpuBefore, cpuAfter);
  const ended = now();
  const latencyWindow = await bench.host.call('window', { from: started, to: ended });
  const statements = statementsPerRun(await bench.host.call('runStatements', { from: started, to: ended }));
  const runs = latencyWindow.runs.total;
  // The embedded database runs on a thread of the app's process: its CPU is the app's.
  const cpuMsPerRun = {
    app: round(ratio(cpuAfter.app - cpuBefore.app, runs), 2),
    database:
      bench.options.db === 'postgres' ? round(ratio(cpuAfter.postgres - cpuBefore.postgres, runs), 2) : null,
    runs,
  };
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
  log(
    `  per run (${runs} runs): CPU ${cpuMsPerRun.app} ms in the app's process` +
      (cpuMsPerRun.database === null
        ? ' (the embedded database included)'
        : `, ${cpuMsPerRun.database} ms in PostgreSQL (every backend on the server, others' too)`) +
      `; statements p50 ${statements.p50} (its own ${statements.ownP50} and the job's fetch and ` +
      `completion), runs that wrote ${describeCounts(statements.changeRuns)}, others ` +
      `${describeCounts(statements.otherRuns)}; the queue's fetches per job ${statements.fetchesPerJob} (empty ones included)`,
  );
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
    statements,
    cpuMsPerRun,
  };
}

/**
 * The statements of a synced run: its own (p50 over every synced run of the phase, and apart the
 * runs that wrote and the others), and the two of its job, fetched and completed.
 */
function statementsPerRun(counted: RunStatements) {
  const own = distribution([...counted.changeRuns, ...counted.otherRuns]);
  return {
    p50: own.p50 + 2,
    ownP50: own.p50,
    ownP95: own.p95,
    changeRuns: distribution(counted.changeRuns),
    otherRuns: distribution(counted.otherRuns),
    fetchesPerJob: round(ratio(counted.fetches, counted.completions), 2),
  };
}

const describeCounts = (d: { count: number; p50: number; p95: number; max: number }) =>
  `p50 ${d.p50} / p95 ${d.p95} / max ${d.max} (n=${d.count})`;
