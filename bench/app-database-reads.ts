import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { USER_SYNC_QUEUE } from '#server/jobs/queue-jobs.ts';
import type { HostApi } from './protocol.ts';

/** The user's sync jobs created in the window, read from the queue's table in the app's database. */
export async function userSyncJobs(
  db: Db,
  { userId, from, to }: Parameters<HostApi['jobs']>[0],
): ReturnType<HostApi['jobs']> {
  const result = await db.execute(
    sql`select data->>'trigger' as trigger, state,
          extract(epoch from created_on) * 1000 as created, extract(epoch from start_after) * 1000 as due,
          extract(epoch from started_on) * 1000 as started, extract(epoch from completed_on) * 1000 as ended
        from pgboss.job where name = ${USER_SYNC_QUEUE} and singleton_key = ${userId}
          and created_on between to_timestamp(${from / 1000}) and to_timestamp(${to / 1000})
        order by created_on`,
  );
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  const time = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return rows.map((row) => ({
    trigger: (row.trigger as string | null) ?? null,
    state: String(row.state),
    created: Number(row.created),
    due: Number(row.due),
    started: time(row.started),
    ended: time(row.ended),
  }));
}

/** The user's linked pairs (a task and its event both there). */
export async function linkedPairCount(db: Db, userId: string): Promise<number> {
  const result = await db.execute(
    sql`select count(*)::int as n from sync_links
        where user_id = ${userId} and task_id is not null and event_id is not null`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}
