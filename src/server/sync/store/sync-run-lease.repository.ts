import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { syncRunLeases } from '#server/db/schema/sync.tables.ts';
import { isForeignKeyViolation } from '#server/db/unique-violation.ts';

/** taken: the lease is the caller's until then; busy: another owner's, until `until`; no-user: gone. */
export type LeaseAttempt = { kind: 'taken' } | { kind: 'busy'; until: Date } | { kind: 'no-user' };

/** The only writer of `sync_run_leases`: one run per user at a time (see run-lease.ts). */
export type SyncRunLeaseRepository = {
  /** Takes the user's lease unless another owner holds one that has not lapsed at `now`. */
  acquire(userId: string, owner: string, until: Date, now: Date): Promise<LeaseAttempt>;
  /** Holds it longer; false when it is no longer the owner's (it lapsed and was taken). */
  renew(userId: string, owner: string, until: Date): Promise<boolean>;
  release(userId: string, owner: string): Promise<void>;
};

export function createSyncRunLeaseRepository(db: Db): SyncRunLeaseRepository {
  return {
    async acquire(userId, owner, until, now) {
      try {
        const taken = await db
          .insert(syncRunLeases)
          .values({ userId, owner, until })
          .onConflictDoUpdate({
            target: syncRunLeases.userId,
            set: { owner, until },
            setWhere: lt(syncRunLeases.until, now),
          })
          .returning({ userId: syncRunLeases.userId });
        if (taken.length > 0) return { kind: 'taken' };
      } catch (error) {
        if (isForeignKeyViolation(error)) return { kind: 'no-user' };
        throw error;
      }
      const [held] = await db
        .select({ until: syncRunLeases.until })
        .from(syncRunLeases)
        .where(eq(syncRunLeases.userId, userId));
      // Released between the two statements: try again at once.
      return { kind: 'busy', until: held?.until ?? now };
    },

    async renew(userId, owner, until) {
      const renewed = await db
        .update(syncRunLeases)
        .set({ until })
        .where(and(eq(syncRunLeases.userId, userId), eq(syncRunLeases.owner, owner)))
        .returning({ userId: syncRunLeases.userId });
      return renewed.length > 0;
    },

    async release(userId, owner) {
      await db
        .delete(syncRunLeases)
        .where(and(eq(syncRunLeases.userId, userId), eq(syncRunLeases.owner, owner)));
    },
  };
}
