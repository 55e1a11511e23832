import { Actor } from '../actors.ts';
import type { BenchUser } from '../bench-users.ts';
import { type Bench, waitQuiet } from '../processes.ts';
import { log, phase } from '../report.ts';
import { inBatches, now, round } from '../stats.ts';

/** Each user's data: 10 timeboxed + 5 plain tasks, 2 uncoloured + 3 coloured events, sync on. */
const createUsers = (bench: Bench, prefix: string, count: number, concurrency: number) =>
  bench.host.call('createUsers', {
    prefix,
    count,
    timeboxedTasks: 10,
    plainTasks: 5,
    uncolouredEvents: 2,
    colouredEvents: 3,
    syncOn: true,
    concurrency,
  });

/**
 * Signs in the benchmark's users (and one more for the JSON API), connects and syncs them, and loads
 * each user's task-event pairs into an actor that acts through that user's own clients.
 */
export async function setupPhase(bench: Bench) {
  phase('Setting up users');
  const started = now();
  const users = await createUsers(bench, 'user', bench.options.users, 8);
  const [apiUser] = (await createUsers(bench, 'api', 1, 1)) as [BenchUser];
  const everyone = [...users, apiUser].map((user) => user.userId);
  const settled = await waitQuiet(bench, everyone, 180_000);
  if (!settled.idle) throw new Error('the first syncs of the users did not finish within 3 minutes');
  const actors = users.map((user) => new Actor(user, bench.origins));
  await inBatches(actors, 10, (actor) => actor.loadPairs());
  const pairCounts = actors.map((actor) => actor.pairs.length);
  log(
    `${users.length + 1} users signed in, connected and synced in ${round((now() - started) / 1000)} s ` +
      (bench.options.calendar === 'microsoft'
        ? `(10 timeboxed + 5 plain tasks, 2 events of the synced category + 3 of another each; `
        : '(10 timeboxed + 5 plain tasks, 2 uncoloured + 3 coloured events each; ') +
      `${Math.min(...pairCounts)}-${Math.max(...pairCounts)} task-event pairs per user)`,
  );
  return { users, apiUser, everyone, actors };
}
