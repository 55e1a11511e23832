import { randomUUID } from 'node:crypto';
import type { IntegrationRow } from '#server/db/schema/integrations.table.ts';
import type { IntegrationRepository } from '../integrations/integration.repository.ts';

/**
 * The integration repository (connected accounts and their sealed tokens) in memory, with the same rules
 * as the Drizzle one (unique keys, scoping by user, the sync's account at position 0), for the services'
 * unit tests. Its rows are public so a test can arrange them and read what was written.
 */

/** A connected account's row: tokens sealed, connected at `at`; the sync's (position 0) unless told. */
export function integrationRow(
  userId: string,
  kind: IntegrationRow['kind'],
  provider: IntegrationRow['provider'],
  accountId: string | null,
  at: Date,
  extra: Partial<IntegrationRow> = {},
): IntegrationRow {
  return {
    id: randomUUID(),
    userId,
    kind,
    position: 0,
    provider,
    accountId,
    email: null,
    calendars: null,
    accessTokenEncrypted: 'sealed',
    refreshTokenEncrypted: null,
    keyId: 'k1',
    expiresAt: null,
    needsReconnect: false,
    connectedAt: at,
    updatedAt: at,
    ...extra,
  };
}

export type InMemoryIntegrations = IntegrationRepository & {
  /** By row id; the sync's account of a kind also as `<userId>:<kind>` (get and set). */
  rows: Map<string, IntegrationRow>;
  /** Puts a row in (as a test arranges it). */
  put(row: IntegrationRow): IntegrationRow;
};

/** Rows by id, where `<userId>:<kind>` names the sync's account of that kind (position 0). */
class IntegrationRows extends Map<string, IntegrationRow> {
  private syncRow(key: string): IntegrationRow | undefined {
    const [userId, kind] = key.split(':');
    for (const row of super.values()) {
      if (row.userId === userId && row.kind === kind && row.position === 0) return row;
    }
    return undefined;
  }

  override get(key: string): IntegrationRow | undefined {
    return super.get(key) ?? (key.includes(':') ? this.syncRow(key) : undefined);
  }

  override has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  override set(key: string, row: IntegrationRow): this {
    if (!key.includes(':')) return super.set(key, row);
    const replaced = this.syncRow(key);
    if (replaced) super.delete(replaced.id);
    return super.set(row.id, row);
  }
}

export function inMemoryIntegrations(): InMemoryIntegrations {
  const rows: Map<string, IntegrationRow> = new IntegrationRows();
  const ofKind = (userId: string, kind: string) =>
    [...rows.values()]
      .filter((row) => row.userId === userId && row.kind === kind)
      .sort((a, b) => a.position - b.position);
  const matching = (ref: { id: string; connectedAt: Date }) => {
    const row = rows.get(ref.id);
    return row && row.connectedAt.getTime() === ref.connectedAt.getTime() ? row : undefined;
  };
  const put = (row: IntegrationRow) => {
    rows.set(row.id, row);
    return row;
  };
  const removeAccount: IntegrationRepository['removeAccount'] = async (userId, id, now) => {
    const gone = rows.get(id);
    if (!gone || gone.userId !== userId) return { promoted: undefined };
    rows.delete(id);
    if (gone.kind !== 'calendar' || gone.position !== 0) return { promoted: undefined };
    const next = ofKind(userId, 'calendar')[0];
    if (!next) return { promoted: undefined };
    const before = { ...next };
    Object.assign(next, { position: 0, calendars: null, updatedAt: now });
    return { promoted: before };
  };
  return {
    rows,
    put,
    find: async (userId, kind) => ofKind(userId, kind).find((row) => row.position === 0),
    findAccount: async (userId, id) => ofKind(userId, 'calendar').find((row) => row.id === id),
    calendarAccounts: async (userId) => ofKind(userId, 'calendar').map((row) => ({ ...row })),
    connect: async (connection, now) => {
      const fresh = { needsReconnect: false, connectedAt: now, updatedAt: now };
      const existing = ofKind(connection.userId, connection.kind).find((row) =>
        connection.kind === 'todoist'
          ? row.position === 0
          : row.provider === connection.provider &&
            (row.accountId === null || row.accountId === connection.accountId),
      );
      if (existing) {
        Object.assign(existing, connection, fresh, { email: connection.email ?? existing.email });
        return { row: { ...existing }, added: existing.position > 0 };
      }
      const all = ofKind(connection.userId, connection.kind);
      const position = all.length === 0 ? 0 : Math.max(...all.map((row) => row.position)) + 1;
      const row = put({
        ...integrationRow(connection.userId, connection.kind, connection.provider, connection.accountId, now),
        ...connection,
        email: connection.email ?? null,
        position,
        ...fresh,
      });
      return { row: { ...row }, added: position > 0 };
    },
    saveProfile: async (id, profile, now) => {
      const row = rows.get(id);
      if (!row) return;
      row.email = profile.email;
      if (profile.calendars) row.calendars = profile.calendars;
      row.updatedAt = now;
    },
    updateTokens: async (ref, tokens, now) => {
      const row = matching(ref);
      if (row) Object.assign(row, tokens, { needsReconnect: false, updatedAt: now });
    },
    markNeedsReconnect: async (ref, now) => {
      const row = matching(ref);
      if (row) Object.assign(row, { needsReconnect: true, updatedAt: now });
    },
    delete: async (userId, kind, now) => {
      const row = ofKind(userId, kind).find((each) => each.position === 0);
      return row ? (await removeAccount(userId, row.id, now)).promoted : undefined;
    },
    removeAccount,
    makeSyncAccount: async (userId, id, syncCalendars, now) => {
      const listed = ofKind(userId, 'calendar');
      const promoted = listed.find((row) => row.id === id && row.position > 0);
      if (!promoted) return undefined;
      const demoted = listed.find((row) => row.position === 0);
      const before = { promoted: { ...promoted }, demoted: demoted && { ...demoted } };
      if (demoted)
        Object.assign(demoted, { position: promoted.position, calendars: syncCalendars, updatedAt: now });
      Object.assign(promoted, { position: 0, calendars: null, updatedAt: now });
      return before;
    },
    onOtherKeys: async (keyId, limit) => {
      const other = [...rows.values()].filter((row) => row.keyId !== keyId);
      return { rows: other.slice(0, limit).map((row) => ({ ...row })), remaining: other.length };
    },
    reencrypt: async (read, tokens) => {
      const row = rows.get(read.id);
      const unchanged =
        row?.accessTokenEncrypted === read.accessTokenEncrypted &&
        row.refreshTokenEncrypted === read.refreshTokenEncrypted;
      if (row && unchanged) Object.assign(row, tokens);
      return unchanged;
    },
  };
}
