import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { type SessionRow, sessions } from '#server/db/schema/sessions.table.ts';

/** The one writer of `sessions`; rows are found by the SHA-256 of the session id, never the id. */
export type SessionRepository = {
  insert(row: SessionRow): Promise<void>;
  find(idHash: string): Promise<SessionRow | undefined>;
  touch(idHash: string, lastSeenAt: Date, expiresAt: Date): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** The user's sessions that expired before `now`. */
  deleteExpired(now: Date, userId: string): Promise<void>;
};

export function createSessionRepository(db: Db): SessionRepository {
  // Every signed-in request reads its session: built once, and parsed once per connection.
  const byHash = db
    .select()
    .from(sessions)
    .where(eq(sessions.idHash, sql.placeholder('idHash')))
    .prepare('session_by_hash');
  return {
    async insert(row: SessionRow): Promise<void> {
      await db.insert(sessions).values(row);
    },

    async find(idHash: string): Promise<SessionRow | undefined> {
      const [row] = await byHash.execute({ idHash });
      return row;
    },

    async touch(idHash: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
      await db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.idHash, idHash));
    },

    async delete(idHash: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.idHash, idHash));
    },

    async deleteExpired(now: Date, userId: string): Promise<void> {
      await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
    },
  };
}
