import { and, count, countDistinct, eq, gt, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { syncProblems, syncStates } from '#server/db/schema/sync.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import type { QueueWaiting } from '#server/jobs/queue-waiting.ts';
import { SYNC_PROBLEMS } from '#shared/api/sync.schema.ts';

/** What the metrics' gauges read when scraped: counts over all users, never a row of one. */
export type OperationsReader = {
  queues(): Promise<QueueWaiting[]>;
  /** Every known kind, with 0 when nobody has it (so a rise from nothing shows as one). */
  usersWithProblems(): Promise<{ kind: string; users: number }[]>;
  channelsExpiring(withinMs: number): Promise<{ provider: string; channels: number }[]>;
  activeUsers(): Promise<number>;
  /** This process's sync lanes and event loop (all zero where no worker runs). */
  lanes(): { open: number; busy: number; loopLoad: number };
};

export function createOperationsReader(deps: {
  db: Db;
  jobs: Pick<JobQueue, 'waiting' | 'syncLanes'>;
  clock: Clock;
}): OperationsReader {
  const { db } = deps;
  return {
    queues: () => deps.jobs.waiting(),
    lanes: () => deps.jobs.syncLanes(),

    async usersWithProblems() {
      const rows = await db
        .select({ kind: syncProblems.code, users: countDistinct(syncProblems.userId) })
        .from(syncProblems)
        .groupBy(syncProblems.code);
      const found = new Map(rows.map((row) => [row.kind, Number(row.users)]));
      const kinds = new Set<string>([...SYNC_PROBLEMS, ...found.keys()]);
      return [...kinds].map((kind) => ({ kind, users: found.get(kind) ?? 0 }));
    },

    async channelsExpiring(withinMs) {
      const now = deps.clock();
      const rows = await db
        .select({ provider: syncStates.calendarProvider, channels: count() })
        .from(syncStates)
        .where(
          and(
            isNotNull(syncStates.channelId),
            gt(syncStates.channelExpiresAt, now),
            lte(syncStates.channelExpiresAt, new Date(now.getTime() + withinMs)),
          ),
        )
        .groupBy(syncStates.calendarProvider);
      const found = new Map(rows.map((row) => [row.provider ?? 'unknown', Number(row.channels)]));
      return ['google', 'microsoft', ...found.keys()]
        .filter((provider, index, all) => all.indexOf(provider) === index)
        .map((provider) => ({ provider, channels: found.get(provider) ?? 0 }));
    },

    async activeUsers() {
      const [row] = await db.select({ users: count() }).from(users).where(eq(users.syncActive, true));
      return Number(row?.users ?? 0);
    },
  };
}
