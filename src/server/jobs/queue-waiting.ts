import type { PgBoss } from 'pg-boss';

/** Per queue: jobs waiting (deferred ones too), and how long the oldest one due has waited. */
export type QueueWaiting = { queue: string; depth: number; oldestWaitingSeconds: number };

/** Every queue's waiting jobs, read from pg-boss's tables when metrics are scraped. */
export async function readQueueWaiting(boss: PgBoss): Promise<QueueWaiting[]> {
  // Deferred jobs count as waiting; only jobs already due age (a retry waits its back-off unaged).
  const { rows } = await boss.getDb().executeSql(
    `select q.name as queue, count(j.id)::int as depth,
            coalesce(extract(epoch from now() - min(j.start_after) filter (where j.start_after <= now())), 0)::float8 as oldest
       from pgboss.queue q
       left join pgboss.job j on j.name = q.name and j.state in ('created', 'retry')
      where q.name not like '\\_\\_pgboss\\_\\_%'
      group by q.name`,
  );
  return (rows as { queue: string; depth: number; oldest: number }[]).map((row) => ({
    queue: row.queue,
    depth: Number(row.depth),
    oldestWaitingSeconds: Number(row.oldest),
  }));
}
