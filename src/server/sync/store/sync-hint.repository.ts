import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { syncHints } from '#server/db/schema/sync.tables.ts';

export type SyncHintRepository = {
  /** Recurring tasks' occurrences were completed (from Todoist's webhooks). */
  occurrencesCompleted(completed: readonly { userId: string; taskId: string }[], at: Date): Promise<void>;
  completedOccurrences(userId: string): Promise<{ taskId: string; at: Date }[]>;
  /** Forgets the hints a run has used (those no newer than `upTo`). */
  consume(userId: string, taskIds: string[], upTo: Date): Promise<void>;
};

/** The only writer of `sync_hints`. */
export function createSyncHintRepository(db: Db): SyncHintRepository {
  // Read by every run: built once, prepared by name.
  const hintsOf = db
    .select({ taskId: syncHints.taskId, at: syncHints.at })
    .from(syncHints)
    .where(eq(syncHints.userId, sql.placeholder('userId')))
    .prepare('sync_hints_of_user');
  return {
    async occurrencesCompleted(completed, at) {
      // One row may be updated once per statement: a task named twice is noted once.
      const unique = new Map(completed.map((entry) => [`${entry.userId} ${entry.taskId}`, entry]));
      if (unique.size === 0) return;
      await db
        .insert(syncHints)
        .values([...unique.values()].map(({ userId, taskId }) => ({ userId, taskId, at })))
        .onConflictDoUpdate({ target: [syncHints.userId, syncHints.taskId], set: { at } });
    },
    async completedOccurrences(userId) {
      return hintsOf.execute({ userId });
    },
    async consume(userId, taskIds, upTo) {
      if (taskIds.length === 0) return;
      await db
        .delete(syncHints)
        .where(
          and(eq(syncHints.userId, userId), inArray(syncHints.taskId, taskIds), lte(syncHints.at, upTo)),
        );
    },
  };
}
