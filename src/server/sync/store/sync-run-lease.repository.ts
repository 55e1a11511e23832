import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { syncRunLeases } from '#server/db/schema/sync.tables.ts';
import { isForeignKeyViolation } from '#server/db/unique-violation.ts';

/** taken: the lease is the caller's until then; busy: another owner's, until `until`; no-user: gone. */
export type LeaseAttempt = { kind: 'taken' } | { kind: 'busy'; until: Date } | { kind: 'no-user' };

/**
 * `sync_run_leases`: one run per user at a time (see run-lease.ts). Written here, and by the two
 * statements that spare a run's lease a statement of its own: its start (sync-run-start.repository.ts)
 * takes it as `acquire` does, and its state saved last (`SyncStateRepository.saveRun`) gives it back as
 * `release` does.
 */
export type SyncRunLeaseRepository = {
  /** Takes the user's lease unless another owner holds one that has not lapsed at `now`. */
  acquire(userId: string, owner: string, until: Date, now: Date): Promise<LeaseAttempt>;
  /** Holds it longer; false when it is no longer the owner's (it lapsed and was taken). */
  renew(userId: string, owner: string, until: Date): Promise<boolean>;
  release(userId: string, owner: string): Promise<void>;
};

/**
 * Takes the user's lease (placeholders `userId`, `owner`, `until`, `now`) unless another run holds it
 * beyond `now`; returns the user's id when taken. Also the first part of a run's start statement.
 */
export function takeLeaseQuery(db: Db) {
  return db
    .insert(syncRunLeases)
    .values({
      userId: sql.placeholder('userId'),
      owner: sql.placeholder('owner'),
      until: sql.placeholder('until'),
    })
    .onConflictDoUpdate({
      target: syncRunLeases.userId,
      set: { owner: sql`excluded.owner`, until: sql`excluded.until` },
      setWhere: lt(syncRunLeases.until, sql.placeholder('now')),
    })
    .returning({ userId: syncRunLeases.userId });
}

export function createSyncRunLeaseRepository(db: Db): SyncRunLeaseRepository {
  // Taken and given back by every run: built once, prepared by name.
  const take = takeLeaseQuery(db).prepare('sync_run_lease_take');
  const heldUntil = db
    .select({ until: syncRunLeases.until })
    .from(syncRunLeases)
    .where(eq(syncRunLeases.userId, sql.placeholder('userId')))
    .prepare('sync_run_lease_held_until');
  const giveBack = db
    .delete(syncRunLeases)
    .where(
      and(
        eq(syncRunLeases.userId, sql.placeholder('userId')),
        eq(syncRunLeases.owner, sql.placeholder('owner')),
      ),
    )
    .prepare('sync_run_lease_give_back');
  return {
    async acquire(userId, owner, until, now) {
      try {
        const taken = await take.execute({ userId, owner, until, now });
        if (taken.length > 0) return { kind: 'taken' };
      } catch (error) {
        if (isForeignKeyViolation(error)) return { kind: 'no-user' };
        throw error;
      }
      const [held] = await heldUntil.execute({ userId });
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
      await giveBack.execute({ userId, owner });
    },
  };
}
