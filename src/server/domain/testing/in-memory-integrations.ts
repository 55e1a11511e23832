import type { IntegrationRow } from '#server/db/schema/integrations.table.ts';
import type { IntegrationRepository } from '../integrations/integration.repository.ts';

/**
 * The integration repository (connected accounts and their sealed tokens) in memory, with the same rules
 * as the Drizzle one (unique keys, scoping by user), for the services' unit tests. Its rows are public so
 * a test can arrange them and read what was written.
 */

/** A connected account's row: tokens sealed, connected at `at`. */
export function integrationRow(
  userId: string,
  kind: IntegrationRow['kind'],
  provider: IntegrationRow['provider'],
  accountId: string | null,
  at: Date,
): IntegrationRow {
  return {
    userId,
    kind,
    provider,
    accountId,
    accessTokenEncrypted: 'sealed',
    refreshTokenEncrypted: null,
    keyId: 'k1',
    expiresAt: null,
    needsReconnect: false,
    connectedAt: at,
    updatedAt: at,
  };
}

export type InMemoryIntegrations = IntegrationRepository & { rows: Map<string, IntegrationRow> };

export function inMemoryIntegrations(): InMemoryIntegrations {
  const rows = new Map<string, IntegrationRow>();
  const key = (userId: string, kind: string) => `${userId}:${kind}`;
  const matching = (ref: { userId: string; kind: string; connectedAt: Date }) => {
    const row = rows.get(key(ref.userId, ref.kind));
    return row && row.connectedAt.getTime() === ref.connectedAt.getTime() ? row : undefined;
  };
  return {
    rows,
    find: async (userId, kind) => rows.get(key(userId, kind)),
    upsert: async (connection, now) => {
      rows.set(key(connection.userId, connection.kind), {
        ...connection,
        needsReconnect: false,
        connectedAt: now,
        updatedAt: now,
      });
    },
    updateTokens: async (ref, tokens, now) => {
      const row = matching(ref);
      if (row) Object.assign(row, tokens, { needsReconnect: false, updatedAt: now });
    },
    markNeedsReconnect: async (ref, now) => {
      const row = matching(ref);
      if (row) Object.assign(row, { needsReconnect: true, updatedAt: now });
    },
    delete: async (userId, kind) => {
      rows.delete(key(userId, kind));
    },
    onOtherKeys: async (keyId, limit) => {
      const other = [...rows.values()].filter((row) => row.keyId !== keyId);
      return { rows: other.slice(0, limit).map((row) => ({ ...row })), remaining: other.length };
    },
    reencrypt: async (read, tokens) => {
      const row = rows.get(key(read.userId, read.kind));
      const unchanged =
        row?.accessTokenEncrypted === read.accessTokenEncrypted &&
        row.refreshTokenEncrypted === read.refreshTokenEncrypted;
      if (row && unchanged) Object.assign(row, tokens);
      return unchanged;
    },
  };
}
