import { and, count, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { type IntegrationRow, integrations } from '#server/db/schema/integrations.table.ts';
import type { IntegrationKind, IntegrationProvider } from './integration-providers.port.ts';

/** What is written on connect; tokens arrive here already encrypted. */
export type StoredConnection = {
  userId: string;
  kind: IntegrationKind;
  provider: IntegrationProvider;
  accountId: string | null;
  accessTokenEncrypted: string;
  refreshTokenEncrypted: string | null;
  keyId: string;
  expiresAt: Date | null;
};

export type StoredTokens = Pick<
  StoredConnection,
  'accessTokenEncrypted' | 'refreshTokenEncrypted' | 'keyId' | 'expiresAt'
>;

/**
 * Which connection an update is meant for: a refresh or a 401 that finishes after the user reconnected
 * (or switched calendar provider) must not touch the new connection.
 */
export type ConnectionRef = { userId: string; kind: IntegrationKind; connectedAt: Date };

export type IntegrationRepository = {
  find(userId: string, kind: IntegrationKind): Promise<IntegrationRow | undefined>;
  /** Inserts or replaces the user's connection of this kind, as a new connection. */
  upsert(connection: StoredConnection, now: Date): Promise<void>;
  updateTokens(ref: ConnectionRef, tokens: StoredTokens, now: Date): Promise<void>;
  markNeedsReconnect(ref: ConnectionRef, now: Date): Promise<void>;
  delete(userId: string, kind: IntegrationKind): Promise<void>;
  /** Up to `limit` connections whose tokens another key than `keyId` encrypted, and how many there are. */
  onOtherKeys(keyId: string, limit: number): Promise<{ rows: IntegrationRow[]; remaining: number }>;
  /**
   * Stores a connection's tokens encrypted anew, unless they changed since `row` was read (a refresh
   * wrote newer ones, under the current key already). False when it did not write.
   */
  reencrypt(
    row: IntegrationRow,
    tokens: Pick<StoredTokens, 'accessTokenEncrypted' | 'refreshTokenEncrypted' | 'keyId'>,
  ): Promise<boolean>;
};

export function createIntegrationRepository(db: Db): IntegrationRepository {
  const same = (ref: ConnectionRef) =>
    and(
      eq(integrations.userId, ref.userId),
      eq(integrations.kind, ref.kind),
      eq(integrations.connectedAt, ref.connectedAt),
    );

  return {
    async find(userId, kind) {
      const [row] = await db
        .select()
        .from(integrations)
        .where(and(eq(integrations.userId, userId), eq(integrations.kind, kind)));
      return row;
    },

    async upsert(connection, now) {
      const values = { ...connection, needsReconnect: false, connectedAt: now, updatedAt: now };
      await db
        .insert(integrations)
        .values(values)
        .onConflictDoUpdate({ target: [integrations.userId, integrations.kind], set: values });
    },

    async updateTokens(ref, tokens, now) {
      await db
        .update(integrations)
        .set({ ...tokens, needsReconnect: false, updatedAt: now })
        .where(same(ref));
    },

    async markNeedsReconnect(ref, now) {
      await db.update(integrations).set({ needsReconnect: true, updatedAt: now }).where(same(ref));
    },

    async delete(userId, kind) {
      await db.delete(integrations).where(and(eq(integrations.userId, userId), eq(integrations.kind, kind)));
    },

    async onOtherKeys(keyId, limit) {
      const [rows, [total]] = await Promise.all([
        db.select().from(integrations).where(ne(integrations.keyId, keyId)).limit(limit),
        db.select({ value: count() }).from(integrations).where(ne(integrations.keyId, keyId)),
      ]);
      return { rows, remaining: Number(total?.value ?? 0) };
    },

    async reencrypt(row, tokens) {
      const written = await db
        .update(integrations)
        .set(tokens)
        .where(
          and(
            eq(integrations.userId, row.userId),
            eq(integrations.kind, row.kind),
            eq(integrations.accessTokenEncrypted, row.accessTokenEncrypted),
            row.refreshTokenEncrypted === null
              ? isNull(integrations.refreshTokenEncrypted)
              : eq(integrations.refreshTokenEncrypted, row.refreshTokenEncrypted),
          ),
        )
        .returning({ userId: integrations.userId });
      return written.length > 0;
    },
  };
}
