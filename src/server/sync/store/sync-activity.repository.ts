import { and, desc, eq, inArray, lt, max, notInArray } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { syncActivity, syncProblems } from '#server/db/schema/sync.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import {
  accountsToReconnectOf,
  accountsToReconnectSchema,
  reconnectOtherCalendarProblem,
} from '#server/db/views/accounts-to-reconnect.ts';
import type { SyncActivityEntry, SyncProblem, SyncProblemCode } from '#shared/api/sync.schema.ts';

export type NewActivity = Omit<SyncActivityEntry, 'id' | 'at'>;

/** How many actions a user's activity keeps; older ones go. */
export const ACTIVITY_KEPT = 100;

export type SyncActivityRepository = {
  add(userId: string, entries: NewActivity[], at: Date): Promise<void>;
  recent(userId: string, limit: number): Promise<SyncActivityEntry[]>;
  /**
   * The held removals as the brake last logged them (the newest run's `held` entries): ids only, and
   * the side removing each would write (an event removed, or a task deleted or unscheduled).
   */
  lastHeld(userId: string): Promise<Pick<SyncActivityEntry, 'taskId' | 'eventId' | 'direction'>[]>;
  /**
   * The open problems: those raised by runs, and while Plan my day counts an added calendar account
   * that must be connected again, `reconnect-other-calendar` (it holds as long as that is so).
   */
  problems(userId: string): Promise<SyncProblem[]>;
  raise(userId: string, code: SyncProblemCode, now: Date): Promise<void>;
  /** Clears the problems a successful run proves solved (all when `codes` is omitted). */
  clear(userId: string, codes?: SyncProblemCode[]): Promise<void>;
};

/** The only writer of `sync_activity` and `sync_problems`: ids and short codes, never text. */
export function createSyncActivityRepository(db: Db): SyncActivityRepository {
  return {
    async add(userId, entries, at) {
      if (entries.length === 0) return;
      // One statement: the new entries go in while the older ones beyond the kept number go. Both
      // parts see the table as it was before it, so the user keeps ACTIVITY_KEPT older entries
      // besides this run's until the next run's entries trim them.
      const inserted = db.$with('inserted').as(
        db
          .insert(syncActivity)
          .values(entries.map((entry) => ({ ...entry, userId, at })))
          .returning({ id: syncActivity.id }),
      );
      const keep = db
        .select({ id: syncActivity.id })
        .from(syncActivity)
        .where(eq(syncActivity.userId, userId))
        .orderBy(desc(syncActivity.at))
        .limit(ACTIVITY_KEPT);
      await db
        .with(inserted)
        .delete(syncActivity)
        .where(
          and(eq(syncActivity.userId, userId), lt(syncActivity.at, at), notInArray(syncActivity.id, keep)),
        );
    },
    async recent(userId, limit) {
      const rows = await db
        .select()
        .from(syncActivity)
        .where(eq(syncActivity.userId, userId))
        .orderBy(desc(syncActivity.at))
        .limit(limit);
      return rows.map(({ userId: _user, at, ...entry }) => ({ ...entry, at: at.toISOString() }));
    },
    async lastHeld(userId) {
      const ofUser = and(eq(syncActivity.userId, userId), eq(syncActivity.action, 'held'));
      const newest = db
        .select({ at: max(syncActivity.at) })
        .from(syncActivity)
        .where(ofUser);
      return db
        .select({
          taskId: syncActivity.taskId,
          eventId: syncActivity.eventId,
          direction: syncActivity.direction,
        })
        .from(syncActivity)
        .where(and(ofUser, eq(syncActivity.at, newest)));
    },
    async problems(userId) {
      const [rows, [user]] = await Promise.all([
        db.select().from(syncProblems).where(eq(syncProblems.userId, userId)),
        db
          .select({ accounts: accountsToReconnectOf(users.id) })
          .from(users)
          .where(eq(users.id, userId)),
      ]);
      const blind = reconnectOtherCalendarProblem(accountsToReconnectSchema.parse(user?.accounts ?? []));
      return [
        ...rows.map((row) => ({ code: row.code as SyncProblemCode, since: row.since })),
        ...(blind ? [blind] : []),
      ].map((problem) => ({ code: problem.code, since: problem.since.toISOString() }));
    },
    async raise(userId, code, now) {
      await db.insert(syncProblems).values({ userId, code, since: now }).onConflictDoNothing();
    },
    async clear(userId, codes) {
      await db
        .delete(syncProblems)
        .where(
          codes
            ? and(eq(syncProblems.userId, userId), inArray(syncProblems.code, codes))
            : eq(syncProblems.userId, userId),
        );
    },
  };
}
