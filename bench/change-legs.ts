import type { Host } from './processes.ts';
import type { WrittenSample } from './samples.ts';
import { type Distribution, distribution } from './stats.ts';

/**
 * Where written changes spent their time, from the queue's own table: until the run that wrote the
 * change was queued (the notification's way to the app, and the app's answer to it), waiting in the
 * queue for a lane, and the run until its write. A change that folded into a job already waiting is
 * queued from its acknowledgement.
 */
export type ChangeLegs = {
  toQueue: Distribution;
  inQueue: Distribution;
  inRun: Distribution;
  matched: number;
};

/** Jobs asked for at once (each is one statement in the app's process). */
const AT_ONCE = 50;

export async function changeLegs(host: Host, samples: WrittenSample[]): Promise<ChangeLegs> {
  const toQueue: number[] = [];
  const inQueue: number[] = [];
  const inRun: number[] = [];
  for (let first = 0; first < samples.length; first += AT_ONCE) {
    const batch = samples.slice(first, first + AT_ONCE);
    const jobsOf = await Promise.all(
      batch.map((sample) =>
        host.call('jobs', {
          userId: sample.change.userId,
          from: sample.change.ackAt - 10_000,
          to: sample.seen.writtenAt,
        }),
      ),
    );
    batch.forEach((sample, index) => {
      const { ackAt } = sample.change;
      const { writtenAt } = sample.seen;
      // The run that wrote it: the last job started before the write.
      const startedAt = (jobsOf[index] ?? [])
        .filter((job) => job.started !== null && job.started <= writtenAt)
        .map((job) => ({ created: job.created, started: job.started ?? 0 }))
        .sort((a, b) => a.started - b.started)
        .at(-1);
      if (!startedAt) return;
      const queuedAt = Math.max(startedAt.created, ackAt);
      toQueue.push(queuedAt - ackAt);
      inQueue.push(Math.max(0, startedAt.started - queuedAt));
      inRun.push(writtenAt - Math.max(startedAt.started, ackAt));
    });
  }
  return {
    toQueue: distribution(toQueue),
    inQueue: distribution(inQueue),
    inRun: distribution(inRun),
    matched: toQueue.length,
  };
}
