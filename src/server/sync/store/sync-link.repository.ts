import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { syncLinks } from '#server/db/schema/sync.tables.ts';
import type { RefusedWrite } from '#shared/sync/refused-writes.ts';
import type { SyncLink } from '../sync-link.ts';
import { type LinkParking, parking } from './sync-link-parking.ts';

/** A pair with a write a provider refused for good, as the dashboard shows it (no versions, no hashes). */
export type RefusedPair = Pick<
  SyncLink,
  'taskId' | 'eventId' | 'refusedStatus' | 'refusedReason' | 'refusedCount'
> & {
  refusedWrite: RefusedWrite;
  refusedAt: Date;
};

export type SyncLinkRepository = LinkParking & {
  /** The sync's pairs (parked ones left out). */
  all(userId: string): Promise<SyncLink[]>;
  /** Records a create about to be sent: the link with its idempotency key, before the provider call. */
  insertPending(userId: string, link: Omit<SyncLink, 'id'> & { id?: string }): Promise<SyncLink>;
  save(userId: string, id: string, values: Partial<Omit<SyncLink, 'id'>>, now: Date): Promise<void>;
  remove(userId: string, id: string): Promise<void>;
  removeAll(userId: string): Promise<void>;
  /**
   * The recorded version of each of these users' events that has a link, keyed `${userId} ${eventId}`
   * (a pending or unlinked event is left out).
   */
  knownVersions(events: readonly { userId: string; eventId: string }[]): Promise<Map<string, string>>;
  /** The user's pairs with a refused write, the latest refusal first, at most `limit`, and how many in all. */
  refused(userId: string, limit: number): Promise<{ total: number; pairs: RefusedPair[] }>;
};

/** The only writer of `sync_links`; every query is scoped by user id. */
export function createSyncLinkRepository(db: Db): SyncLinkRepository {
  const toLink = (row: typeof syncLinks.$inferSelect): SyncLink => {
    const { userId: _user, updatedAt: _updated, parkedIn: _parked, ...link } = row;
    return link;
  };
  // Read by every run: built once, prepared by name.
  const linksOf = db
    .select()
    .from(syncLinks)
    .where(and(eq(syncLinks.userId, sql.placeholder('userId')), isNull(syncLinks.parkedIn)))
    .prepare('sync_links_of_user');
  return {
    ...parking(db, toLink),
    async all(userId) {
      const rows = await linksOf.execute({ userId });
      return rows.map(toLink);
    },
    async insertPending(userId, link) {
      const [row] = await db
        .insert(syncLinks)
        .values({ ...link, userId })
        .returning();
      return toLink(row as typeof syncLinks.$inferSelect);
    },
    async save(userId, id, values, now) {
      await db
        .update(syncLinks)
        .set({ ...values, updatedAt: now })
        .where(and(eq(syncLinks.userId, userId), eq(syncLinks.id, id), isNull(syncLinks.parkedIn)));
    },
    async remove(userId, id) {
      await db.delete(syncLinks).where(and(eq(syncLinks.userId, userId), eq(syncLinks.id, id)));
    },
    async removeAll(userId) {
      await db.delete(syncLinks).where(eq(syncLinks.userId, userId));
    },
    async knownVersions(events) {
      if (events.length === 0) return new Map();
      const rows = await db
        .select({ userId: syncLinks.userId, eventId: syncLinks.eventId, version: syncLinks.eventVersion })
        .from(syncLinks)
        .where(
          and(
            inArray(syncLinks.userId, [...new Set(events.map((event) => event.userId))]),
            inArray(syncLinks.eventId, [...new Set(events.map((event) => event.eventId))]),
            isNull(syncLinks.pendingKey),
            isNull(syncLinks.parkedIn),
          ),
        );
      return new Map(
        rows.flatMap((row) => (row.version ? [[`${row.userId} ${row.eventId}`, row.version]] : [])),
      );
    },
    async refused(userId, limit) {
      // One statement: the page of pairs and, with each row, the count of them all.
      const rows = await db
        .select({
          taskId: syncLinks.taskId,
          eventId: syncLinks.eventId,
          refusedWrite: syncLinks.refusedWrite,
          refusedStatus: syncLinks.refusedStatus,
          refusedReason: syncLinks.refusedReason,
          refusedAt: syncLinks.refusedAt,
          refusedCount: syncLinks.refusedCount,
          total: sql<number>`count(*) over ()`.mapWith(Number),
        })
        .from(syncLinks)
        .where(
          and(
            eq(syncLinks.userId, userId),
            isNull(syncLinks.parkedIn),
            isNotNull(syncLinks.refusedWrite),
            isNotNull(syncLinks.refusedAt),
          ),
        )
        .orderBy(desc(syncLinks.refusedAt), syncLinks.id)
        .limit(limit);
      const pairs = rows.flatMap(({ total: _total, refusedWrite, refusedAt, ...pair }) =>
        refusedWrite && refusedAt ? [{ ...pair, refusedWrite, refusedAt }] : [],
      );
      return { total: rows[0]?.total ?? 0, pairs };
    },
  };
}
