import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { syncStates } from '#server/db/schema/sync.tables.ts';

export type SyncState = typeof syncStates.$inferSelect;
export type SyncStatePatch = Partial<Omit<SyncState, 'userId' | 'updatedAt'>>;

export type SyncStateRepository = {
  find(userId: string): Promise<SyncState | null>;
  save(userId: string, patch: SyncStatePatch, now: Date): Promise<void>;
  /** The user whose calendar channel has this id (push notifications name only the channel). */
  byChannel(channelId: string): Promise<SyncState | null>;
  /** Users whose channel expires before `before`: renew them. */
  expiringChannels(before: Date): Promise<SyncState[]>;
};

/** The only writer of `sync_states`. */
export function createSyncStateRepository(db: Db): SyncStateRepository {
  return {
    async find(userId) {
      const [row] = await db.select().from(syncStates).where(eq(syncStates.userId, userId));
      return row ?? null;
    },
    async save(userId, patch, now) {
      const values = { ...patch, updatedAt: now };
      await db
        .insert(syncStates)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: syncStates.userId, set: values });
    },
    async byChannel(channelId) {
      const [row] = await db.select().from(syncStates).where(eq(syncStates.channelId, channelId));
      return row ?? null;
    },
    async expiringChannels(before) {
      return db
        .select()
        .from(syncStates)
        .where(and(isNotNull(syncStates.channelId), lt(syncStates.channelExpiresAt, before)));
    },
  };
}
