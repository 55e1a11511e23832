import { TodoistApi } from '@doist/todoist-sdk';
import type pg from 'pg';
import { dayFromToday } from '../bench-users.ts';
import { seeded } from '../samples.ts';
import { now, sleep } from '../stats.ts';
import type { ScaleUser } from './scale-seed.ts';

/**
 * Live changes during the wave: users who add a timeboxed task in Todoist, one after another, each
 * 5–15 s after their last one was written, as a person planning their day would (busier than most:
 * 1% of 10,000 users at this pace is about ten changes a second). A change is written
 * when the app has created its event in the user's calendar and recorded the pair (the database is polled
 * every 50 ms for the task's link with its event), so latency runs from Todoist's answer to the add
 * to that moment.
 */

/** How long a change may take before it counts as never written. */
const WRITE_TIMEOUT_MS = 60_000;
const POLL_MS = 50;

export type LiveChange = { userId: string; ackAt: number; writtenAt: number | null };

/** Polls the pairs the app recorded for the tasks added and not yet written. */
function linkWatch(client: pg.Client) {
  const pending = new Map<string, { userId: string; resolve: (at: number) => void }>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      if (pending.size > 0) {
        const taskIds = [...pending.keys()];
        const userIds = taskIds.map((taskId) => pending.get(taskId)?.userId);
        const { rows } = await client.query(
          `select task_id from sync_links
            where (user_id, task_id) in (select * from unnest($1::uuid[], $2::text[]))
              and event_id is not null`,
          [userIds, taskIds],
        );
        const at = now();
        for (const { task_id: taskId } of rows as { task_id: string }[]) {
          pending.get(taskId)?.resolve(at);
          pending.delete(taskId);
        }
      }
      await sleep(POLL_MS);
    }
  })();
  return {
    /** When the app wrote the task's event; null after the timeout. */
    written(userId: string, taskId: string): Promise<number | null> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(taskId);
          resolve(null);
        }, WRITE_TIMEOUT_MS);
        pending.set(taskId, {
          userId,
          resolve: (at) => {
            clearTimeout(timer);
            resolve(at);
          },
        });
      });
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/**
 * `users` each add tasks until `running()` turns false (their change in flight is still awaited).
 * Returns every change with its acknowledgement and write times.
 */
export async function liveChanges(
  users: ScaleUser[],
  todoistOrigin: string,
  client: pg.Client,
  running: () => boolean,
): Promise<LiveChange[]> {
  const watch = linkWatch(client);
  const changes: LiveChange[] = [];
  await Promise.all(
    users.map(async (user, index) => {
      const random = seeded(7_000 + index);
      const todoist = new TodoistApi(user.todoistToken, { baseUrl: todoistOrigin });
      // People do not all start in the same second.
      await sleep(random() * 10_000);
      for (let added = 0; running(); added++) {
        const day = 1 + Math.floor(random() * 27);
        const hour = 7 + Math.floor(random() * 12);
        const minute = Math.floor(random() * 4) * 15;
        const task = await todoist.addTask({
          content: `Live ${added}`,
          labels: ['30min'],
          dueString: `${dayFromToday(day)} at ${hour}:${String(minute).padStart(2, '0')}`,
        });
        const ackAt = now();
        const writtenAt = await watch.written(user.userId, task.id);
        changes.push({ userId: user.userId, ackAt, writtenAt });
        await sleep(5000 + random() * 10_000);
      }
    }),
  );
  await watch.stop();
  return changes;
}
