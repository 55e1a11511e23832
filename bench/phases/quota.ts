import type { Actor } from '../actors.ts';
import { type Bench, waitQuiet } from '../processes.ts';
import { log, phase } from '../report.ts';
import { seeded } from '../samples.ts';
import { now, sleep } from '../stats.ts';

/**
 * One user edits without pause (a task moved every 0.1–0.5 s) for `minutes`: the app's calls to
 * Todoist for them stay within Todoist's published 1,000 per 15 minutes (the emulator enforces it and
 * would answer 429), and every change still reaches the calendar.
 */
async function measureQuota(bench: Bench, actor: Actor, minutes: number) {
  const started = now();
  const until = started + minutes * 60_000;
  const random = seeded(99);
  let changes = 0;
  while (now() < until) {
    await actor.change('task-move', changes, random);
    changes += 1;
    await sleep(100 + random() * 400);
  }
  await waitQuiet(bench, [actor.user.userId], 120_000);
  const requests = await bench.host.call('userRequests', {
    userId: actor.user.userId,
    from: started,
    to: now(),
  });
  const todoist = requests
    .filter((request) => request.target === 'todoist')
    .map((request) => request.start)
    .sort((a, b) => a - b);
  let mostIn15Minutes = 0;
  for (let last = 0, first = 0; last < todoist.length; last++) {
    while ((todoist[last] as number) - (todoist[first] as number) >= 15 * 60_000) first += 1;
    mostIn15Minutes = Math.max(mostIn15Minutes, last - first + 1);
  }
  const consistency = await actor.consistency();
  return {
    minutes,
    changes,
    todoistCalls: todoist.length,
    mostTodoistCallsIn15Minutes: mostIn15Minutes,
    responses429: requests.filter((request) => request.status === 429).length,
    consistent: consistency.mismatches.length === 0,
  };
}

export type Quota = Awaited<ReturnType<typeof measureQuota>>;

/** The quota phase for `actor`, over `quotaMinutes`, printed. */
export async function quotaPhase(bench: Bench, actor: Actor): Promise<Quota> {
  const minutes = bench.options.quotaMinutes;
  phase(`Quota: one user moves a task every 0.1-0.5 s for ${minutes} min`);
  const quota = await measureQuota(bench, actor, minutes);
  log(
    `${quota.changes} changes; the app called Todoist ${quota.todoistCalls} times for them, at most ` +
      `${quota.mostTodoistCallsIn15Minutes} in 15 minutes (limit 1,000); ${quota.responses429} answers 429; ` +
      `both sides agree: ${quota.consistent ? 'yes' : 'NO'}`,
  );
  return quota;
}
