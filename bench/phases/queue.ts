import type { Bench } from '../processes.ts';
import { log, phase } from '../report.ts';
import { round } from '../stats.ts';

/** Every user's sync queued at once, `queueRounds` times: how many jobs the worker gets through a second. */
export async function queuePhase(bench: Bench, userIds: string[]) {
  phase(`Queue throughput: every user's sync queued at once, ${bench.options.queueRounds} rounds`);
  const queue = await bench.host.call('queueRounds', { userIds, rounds: bench.options.queueRounds });
  // The median round: one slow round (a job retried after a back-off, say) says little of the rate.
  const rates = queue.perRound.map((entry) => entry.jobs / entry.seconds).sort((a, b) => a - b);
  const jobsPerSecond = rates[Math.floor(rates.length / 2)] ?? Number.NaN;
  log(
    `${queue.jobs} runs (incremental reads of both sides, nothing to write) in ${round(queue.seconds, 2)} s: ` +
      `${round(jobsPerSecond)} jobs/s in the median round; rounds ${queue.perRound.map((entry) => `${entry.jobs} in ${round(entry.seconds, 2)} s`).join(', ')}`,
  );
  return { jobsPerSecond };
}
