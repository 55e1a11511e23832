import type { Actor } from '../actors.ts';
import { type Bench, waitQuiet } from '../processes.ts';
import { describe, log, ms, phase, secondsFrom } from '../report.ts';
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

/**
 * Each user edits the way people type: a task moved, then another 0.2–3 s later, without waiting for
 * the sync of the one before (whose echo is then often still on its way). Each change's latency is
 * until the app wrote that task's event.
 */
async function makeEdits(bench: Bench, actors: Actor[]) {
  const samples: Sample[] = [];
  await everyUserAtOnce(actors, 5000, async (actor, random) => {
    const watching: Promise<void>[] = [];
    for (let edit = 0; edit < bench.options.editsPerUser; edit++) {
      const made = await actor.change('task-move', edit, random);
      watching.push(
        observe(bench.host, made, true).then((sample) => {
          samples.push(sample);
        }),
      );
      await sleep(200 + random() * 2800);
    }
    await Promise.all(watching);
  });
  return samples;
}

export async function quickEditsPhase(bench: Bench, actors: Actor[], everyone: string[]) {
  const { host, options } = bench;
  phase(`Quick edits: every user moves ${options.editsPerUser} tasks 0.2-3 s apart, not waiting for each`);
  await waitQuiet(bench, everyone, 60_000);
  const editsStart = now();
  const edits = await makeEdits(bench, actors);
  await waitQuiet(bench, everyone, 60_000);
  const editsWindow = await host.call('window', { from: editsStart, to: now() });
  const editsWritten = edits.filter(isWritten);
  const latency = distribution(editsWritten.map(writtenAfter));
  const callsPerEdit = round(
    ratio(editsWindow.appRequests.todoist + editsWindow.appRequests.calendar, edits.length),
    2,
  );
  log(
    `${edits.length} changes; written ${editsWritten.length}, never written ${edits.length - editsWritten.length}; ` +
      `latency ${describe(latency)}; provider calls per change (echoes included) ${callsPerEdit}; ` +
      `${editsWindow.runs.total} runs (${editsWindow.runs.retryLater} deferred for a budget)`,
  );
  for (const sample of slowest(editsWritten, 3)) {
    const jobs = await host.call('jobs', {
      userId: sample.change.userId,
      from: sample.change.ackAt - 3000,
      to: sample.seen.writtenAt,
    });
    const at = secondsFrom(sample.change.ackAt);
    log(
      `  slow: written after ${ms(writtenAfter(sample))}; runs (s): ${runsAround(sample)}; ` +
        `jobs (created/due/started/ended, s): ${jobs.map((job) => `${job.trigger ?? '-'} ${at(job.created)}/${at(job.due)}/${at(job.started)}/${at(job.ended)}`).join(', ')}`,
    );
  }
  return { latency, callsPerEdit, unwritten: edits.length - editsWritten.length };
}
