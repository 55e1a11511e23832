import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { groupCommit } from '#server/jobs/group-commit.ts';
import { USER_SYNC_QUEUE } from '#server/jobs/queue-jobs.ts';

/**
 * Of the users asked about, those with a sync job waiting or running in the queue (pg-boss's own
 * table). Hundreds of observers ask every 50 ms: the questions asked while one statement runs go
 * together in the next, so the benchmark's watching holds one connection of the app's pool at most,
 * not one statement per observer and poll (30,000 statements of 6 ms each in a 500-user run, on the
 * pool the sync runs use). Waiting jobs are found through the queue's index of waiting jobs and running
 * ones through its index of active groups, not by scanning the hour of completed jobs the table keeps.
 */
export function queuedUsersOf(db: Db): (userIds: string[]) => Promise<Set<string>> {
  async function queuedAmong(userIds: readonly string[]): Promise<Set<string>> {
    const ids = sql`array[${sql.join(
      userIds.map((id) => sql`${id}`),
      sql`, `,
    )}]::text[]`;
    const result = await db.execute(
      sql`select singleton_key as "userId" from pgboss.job
           where name = ${USER_SYNC_QUEUE} and state < 'active' and not blocked and singleton_key = any(${ids})
          union
          select group_id from pgboss.job
           where name = ${USER_SYNC_QUEUE} and state = 'active' and group_id = any(${ids})`,
    );
    const rows = (result as unknown as { rows: { userId: string }[] }).rows;
    return new Set(rows.map((row) => row.userId));
  }
  const isQueued = groupCommit(async (userIds: string[]) => {
    const queued = await queuedAmong([...new Set(userIds)]);
    return userIds.map((userId) => queued.has(userId));
  });
  return async (userIds) => {
    const answers = await Promise.all(userIds.map(isQueued));
    return new Set(userIds.filter((_, index) => answers[index]));
  };
}
