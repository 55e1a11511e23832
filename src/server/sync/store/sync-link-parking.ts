import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { syncLinks } from '#server/db/schema/sync.tables.ts';
import type { SyncLink } from '../sync-link.ts';

/** A calendar account by its provider and that provider's id of it (`integrations.account_id`). */
export type LinkAccount = { provider: 'google' | 'microsoft'; accountId: string };

/** The sync links repository's part for pairs left behind (sync-link.repository.ts). */
export type LinkParking = {
  /**
   * Parks these pairs in the calendar account their events are in (decision 028): out of the sync until
   * it comes back there. An account no longer connected (or none known) has nothing to come back to:
   * the pairs are removed.
   */
  park(userId: string, ids: readonly string[], account: LinkAccount | null, now: Date): Promise<void>;
  /** The pairs parked in this calendar of this account. */
  parked(userId: string, account: LinkAccount, calendarId: string): Promise<SyncLink[]>;
  /** Makes parked pairs the sync's again. */
  resume(userId: string, ids: readonly string[], now: Date): Promise<void>;
};

/**
 * Pairs left behind in a calendar account the sync went away from (decision 028): `parked_in` names
 * that account's row, so removing the account removes them.
 */
export function parking(db: Db, toLink: (row: typeof syncLinks.$inferSelect) => SyncLink): LinkParking {
  return {
    async park(userId, ids, account, now) {
      if (ids.length === 0) return;
      const mine = and(eq(syncLinks.userId, userId), inArray(syncLinks.id, [...ids]));
      await db.transaction(async (tx) => {
        const [row] = account
          ? await tx
              .select({ id: integrations.id })
              .from(integrations)
              .where(
                and(
                  eq(integrations.userId, userId),
                  eq(integrations.kind, 'calendar'),
                  eq(integrations.provider, account.provider),
                  eq(integrations.accountId, account.accountId),
                ),
              )
          : [];
        if (!row) {
          await tx.delete(syncLinks).where(mine);
          return;
        }
        await tx.update(syncLinks).set({ parkedIn: row.id, updatedAt: now }).where(mine);
      });
    },
    async parked(userId, account, calendarId) {
      const rows = await db
        .select({ link: syncLinks })
        .from(syncLinks)
        .innerJoin(integrations, eq(integrations.id, syncLinks.parkedIn))
        .where(
          and(
            eq(syncLinks.userId, userId),
            eq(syncLinks.calendarId, calendarId),
            eq(integrations.userId, userId),
            eq(integrations.provider, account.provider),
            eq(integrations.accountId, account.accountId),
          ),
        )
        .orderBy(syncLinks.id);
      return rows.map((row) => toLink(row.link));
    },
    async resume(userId, ids, now) {
      if (ids.length === 0) return;
      await db
        .update(syncLinks)
        .set({ parkedIn: null, updatedAt: now })
        .where(and(eq(syncLinks.userId, userId), inArray(syncLinks.id, [...ids])));
    },
  };
}
