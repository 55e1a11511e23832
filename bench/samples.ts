/** Changes the users made and what the app did with them: how they are watched, timed and explained. */

import type { Actor, MadeChange } from './actors.ts';
import type { Host } from './processes.ts';
import type { ChangeObservation } from './protocol.ts';
import { calendarName, secondsFrom } from './report.ts';
import { sleep } from './stats.ts';

export type Sample = { change: MadeChange; seen: ChangeObservation };
export type WrittenSample = Sample & { seen: { writtenAt: number } };

/** A small seeded generator, so runs choose the same changes. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Every user at once, each with a generator of its own (seeded `seed` + its index) and starting at a
 * moment of the first 2 s (users do not all start in the same second).
 */
export async function everyUserAtOnce(
  actors: Actor[],
  seed: number,
  act: (actor: Actor, random: () => number, index: number) => Promise<void>,
) {
  await Promise.all(
    actors.map(async (actor, index) => {
      const random = seeded(seed + index);
      await sleep(random() * 2000);
      await act(actor, random, index);
    }),
  );
}

/**
 * Waits (up to 30 s) for the app to write the change on the other side and handle its echo.
 * `byEvent`: the write looked for is to the change's own event (when it has one).
 */
export async function observe(host: Host, made: MadeChange, byEvent = false): Promise<Sample> {
  const seen = await host.call('observeChange', {
    userId: made.userId,
    sentAt: made.sentAt,
    side: made.side,
    timeoutMs: 30_000,
    ...(byEvent && made.eventId ? { eventId: made.eventId } : {}),
  });
  return { change: made, seen };
}

export const isWritten = (sample: Sample): sample is WrittenSample => sample.seen.writtenAt !== null;

/** From the provider's acknowledgement of the change to the app's write on the other side. */
export const writtenAfter = (sample: WrittenSample) => sample.seen.writtenAt - sample.change.ackAt;

/** The `count` changes written last after their acknowledgement, slowest first. */
export const slowest = (samples: WrittenSample[], count: number) =>
  [...samples].sort((a, b) => writtenAfter(b) - writtenAfter(a)).slice(0, count);

/** The user's runs around a change (times in seconds from the change's acknowledgement). */
export function runsAround(sample: Sample) {
  const at = secondsFrom(sample.change.ackAt);
  const read = ({ todoist, calendar }: { todoist: number; calendar: number }) =>
    todoist + calendar === 0
      ? ''
      : ` (read ${[todoist && `Todoist ${todoist}`, calendar && `${calendarName.label} ${calendar}`].filter(Boolean).join(', ')})`;
  return sample.seen.timeline
    .map((run) => `${at(run.start)}..${at(run.end)} ${run.outcome}${read(run.reads)}`)
    .join(', ');
}
