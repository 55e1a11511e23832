import type { SessionRow } from '#server/db/schema/sessions.table.ts';
import type { SessionRepository } from './session.repository.ts';

/** Sessions kept in memory at most (the least recently read go first). */
const REMEMBERED_MAX = 10_000;

export type RememberedSessions = SessionRepository & {
  /** The user and every row of theirs were deleted (their sessions went by cascade): forget theirs. */
  forgetUser(userId: string): void;
};

/**
 * The sessions repository with every row it read or wrote kept in memory, so a signed-in request
 * reads its session without a statement. Exact only where this process makes every write to the
 * sessions table: the embedded database, which one process opens (docs/decisions/003, addendum). On a
 * server other processes sign users out, and this is not used. Writes go to the database first, then
 * to memory; the rows' own cascade (a deleted user) is told through `forgetUser`.
 */
export function rememberedSessions(stored: SessionRepository, max = REMEMBERED_MAX): RememberedSessions {
  const rows = new Map<string, SessionRow>();

  const remember = (row: SessionRow) => {
    rows.delete(row.idHash);
    rows.set(row.idHash, row);
    if (rows.size > max) {
      const oldest = rows.keys().next().value;
      if (oldest !== undefined) rows.delete(oldest);
    }
  };

  return {
    async insert(row) {
      await stored.insert(row);
      remember(row);
    },

    async find(idHash) {
      const known = rows.get(idHash);
      if (known) {
        remember(known);
        return known;
      }
      const row = await stored.find(idHash);
      if (row) remember(row);
      return row;
    },

    async touch(idHash, lastSeenAt, expiresAt) {
      await stored.touch(idHash, lastSeenAt, expiresAt);
      const known = rows.get(idHash);
      if (known) remember({ ...known, lastSeenAt, expiresAt });
    },

    async delete(idHash) {
      await stored.delete(idHash);
      rows.delete(idHash);
    },

    async deleteExpired(now, userId) {
      await stored.deleteExpired(now, userId);
      for (const [idHash, row] of rows) {
        if (row.userId === userId && row.expiresAt < now) rows.delete(idHash);
      }
    },

    forgetUser(userId) {
      for (const [idHash, row] of rows) if (row.userId === userId) rows.delete(idHash);
    },
  };
}
