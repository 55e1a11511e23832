import { and, asc, count, eq, gt, isNull, max, ne, or } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { type IntegrationRow, integrations } from '#server/db/schema/integrations.table.ts';
import type { StoredCalendar } from '#server/db/schema/settings.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import type { IntegrationKind, IntegrationProvider } from './integration-providers.port.ts';

/** What is written on connect; tokens arrive here already encrypted. */
export type StoredConnection = {
  userId: string;
  kind: IntegrationKind;
  provider: IntegrationProvider;
  accountId: string | null;
  /** The account's address at the provider, when known. */
  email?: string | null;
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
 * (or removed the account) must not touch the new connection.
 */
export type ConnectionRef = { id: string; connectedAt: Date };

/** What storing a connection did: its row, and whether it is an account added beside the sync's. */
export type Connected = { row: IntegrationRow; added: boolean };

export type IntegrationRepository = {
  /** The sync's account of this kind (position 0). */
  find(userId: string, kind: IntegrationKind): Promise<IntegrationRow | undefined>;
  /** One of the user's calendar accounts by its row id (undefined: not theirs, or gone). */
  findAccount(userId: string, id: string): Promise<IntegrationRow | undefined>;
  /** Every calendar account of the user, the sync's first, then in the order they were added. */
  calendarAccounts(userId: string): Promise<IntegrationRow[]>;
  /**
   * Stores a connection as a new connection (tokens replaced, connected now, no reconnect needed).
   * Todoist: the user's one Todoist account. Calendar: the row of the same account (same provider and
   * account id, or a row of that provider whose account id was never known) when there is one; else a
   * new account, the sync's when the user has none, else after the last one.
   */
  connect(connection: StoredConnection, now: Date): Promise<Connected>;
  /** What the provider lists of an account now: its address, and an added account's calendars. */
  saveProfile(
    id: string,
    profile: { email: string | null; calendars?: StoredCalendar[] },
    now: Date,
  ): Promise<void>;
  updateTokens(ref: ConnectionRef, tokens: StoredTokens, now: Date): Promise<void>;
  markNeedsReconnect(ref: ConnectionRef, now: Date): Promise<void>;
  /** Deletes the sync's account of this kind; an added calendar account takes its place (see `removeAccount`). */
  delete(userId: string, kind: IntegrationKind, now: Date): Promise<IntegrationRow | undefined>;
  /**
   * Deletes one calendar account. When it was the sync's, the first added one becomes the sync's
   * (position 0, its calendar list handed back to be kept with the calendar settings): returned with
   * the list it had.
   */
  removeAccount(userId: string, id: string, now: Date): Promise<{ promoted: IntegrationRow | undefined }>;
  /**
   * Makes one of the user's added calendar accounts the sync's (position 0), and the sync's account an
   * added one in its place (its position), in one transaction: the unique position per user and kind
   * holds throughout. The sync's calendar list, kept with the calendar settings until now
   * (`syncCalendars`), goes on its row; the promoted one is returned with the list it had, as
   * `removeAccount` returns it. Undefined: no added account of the user's has this id.
   */
  makeSyncAccount(
    userId: string,
    id: string,
    syncCalendars: StoredCalendar[],
    now: Date,
  ): Promise<{ promoted: IntegrationRow; demoted: IntegrationRow | undefined } | undefined>;
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

/** The position a row holds for a moment while two accounts change places (never seen outside the transaction). */
const SWAPPING = -1;

export function createIntegrationRepository(db: Db): IntegrationRepository {
  const same = (ref: ConnectionRef) =>
    and(eq(integrations.id, ref.id), eq(integrations.connectedAt, ref.connectedAt));
  const ofKind = (userId: string, kind: IntegrationKind) =>
    and(eq(integrations.userId, userId), eq(integrations.kind, kind));

  /**
   * Connecting, removing and swapping a user's accounts each read the positions, then write them: two
   * at once (two tabs, a double click) would both take the same position, and the unique index would
   * fail one with a server error. Each takes the user's row first, so they run one after the other,
   * the second reading what the first wrote.
   */
  const lockAccountsOf = (tx: Pick<Db, 'select'>, userId: string) =>
    tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');

  async function promoteFirstAdded(tx: Pick<Db, 'select' | 'update'>, userId: string, now: Date) {
    const [next] = await tx
      .select()
      .from(integrations)
      .where(and(ofKind(userId, 'calendar'), gt(integrations.position, 0)))
      .orderBy(asc(integrations.position))
      .limit(1);
    if (!next) return undefined;
    await tx
      .update(integrations)
      .set({ position: 0, calendars: null, updatedAt: now })
      .where(eq(integrations.id, next.id));
    return next;
  }

  async function removeAccount(userId: string, id: string, now: Date) {
    return db.transaction(async (tx) => {
      await lockAccountsOf(tx, userId);
      const [gone] = await tx
        .delete(integrations)
        .where(and(eq(integrations.userId, userId), eq(integrations.id, id)))
        .returning({ kind: integrations.kind, position: integrations.position });
      const promoted =
        gone?.kind === 'calendar' && gone.position === 0
          ? await promoteFirstAdded(tx, userId, now)
          : undefined;
      return { promoted };
    });
  }

  return {
    async find(userId, kind) {
      const [row] = await db
        .select()
        .from(integrations)
        .where(and(ofKind(userId, kind), eq(integrations.position, 0)));
      return row;
    },

    async findAccount(userId, id) {
      const [row] = await db
        .select()
        .from(integrations)
        .where(and(ofKind(userId, 'calendar'), eq(integrations.id, id)));
      return row;
    },

    calendarAccounts: (userId) =>
      db.select().from(integrations).where(ofKind(userId, 'calendar')).orderBy(asc(integrations.position)),

    async connect(connection, now) {
      const fresh = { ...connection, needsReconnect: false, connectedAt: now, updatedAt: now };
      return db.transaction(async (tx) => {
        await lockAccountsOf(tx, connection.userId);
        const sameAccount =
          connection.kind === 'todoist'
            ? eq(integrations.position, 0)
            : and(
                eq(integrations.provider, connection.provider),
                connection.accountId === null
                  ? isNull(integrations.accountId)
                  : or(eq(integrations.accountId, connection.accountId), isNull(integrations.accountId)),
              );
        const [existing] = await tx
          .select()
          .from(integrations)
          .where(and(ofKind(connection.userId, connection.kind), sameAccount))
          .orderBy(asc(integrations.position))
          .limit(1);
        if (existing) {
          const [row] = await tx
            .update(integrations)
            .set({ ...fresh, email: connection.email ?? existing.email })
            .where(eq(integrations.id, existing.id))
            .returning();
          return { row: row ?? existing, added: existing.position > 0 };
        }
        const [last] = await tx
          .select({ position: max(integrations.position) })
          .from(integrations)
          .where(ofKind(connection.userId, connection.kind));
        const position = last?.position === null || last?.position === undefined ? 0 : last.position + 1;
        const [row] = await tx
          .insert(integrations)
          .values({ ...fresh, position })
          .returning();
        if (!row) throw new Error('the connection was not stored');
        return { row, added: position > 0 };
      });
    },

    async saveProfile(id, profile, now) {
      await db
        .update(integrations)
        .set({
          email: profile.email,
          ...(profile.calendars && { calendars: profile.calendars }),
          updatedAt: now,
        })
        .where(eq(integrations.id, id));
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

    async delete(userId, kind, now) {
      const [row] = await db
        .select({ id: integrations.id })
        .from(integrations)
        .where(and(ofKind(userId, kind), eq(integrations.position, 0)));
      if (!row) return undefined;
      return (await removeAccount(userId, row.id, now)).promoted;
    },

    removeAccount,

    async makeSyncAccount(userId, id, syncCalendars, now) {
      return db.transaction(async (tx) => {
        await lockAccountsOf(tx, userId);
        const rows = await tx
          .select()
          .from(integrations)
          .where(and(ofKind(userId, 'calendar'), or(eq(integrations.id, id), eq(integrations.position, 0))));
        const promoted = rows.find((row) => row.id === id && row.position > 0);
        if (!promoted) return undefined;
        const demoted = rows.find((row) => row.position === 0);
        // Positions are unique per user and kind at every statement: the sync's row steps aside first.
        if (demoted) {
          await tx
            .update(integrations)
            .set({ position: SWAPPING, updatedAt: now })
            .where(eq(integrations.id, demoted.id));
        }
        await tx
          .update(integrations)
          .set({ position: 0, calendars: null, updatedAt: now })
          .where(eq(integrations.id, promoted.id));
        if (demoted) {
          await tx
            .update(integrations)
            .set({ position: promoted.position, calendars: syncCalendars, updatedAt: now })
            .where(eq(integrations.id, demoted.id));
        }
        return { promoted, demoted };
      });
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
            eq(integrations.id, row.id),
            eq(integrations.accessTokenEncrypted, row.accessTokenEncrypted),
            row.refreshTokenEncrypted === null
              ? isNull(integrations.refreshTokenEncrypted)
              : eq(integrations.refreshTokenEncrypted, row.refreshTokenEncrypted),
          ),
        )
        .returning({ id: integrations.id });
      return written.length > 0;
    },
  };
}
