import type { SessionRow } from '#server/db/schema/sessions.table.ts';
import type { SessionRepository } from '../sessions/session.repository.ts';

/**
 * The session repository in memory, with the same rules as the Drizzle one (unique keys, scoping by
 * user), for the services' unit tests. Its rows are public so a test can arrange them and read what was
 * written.
 */

export type InMemorySessions = SessionRepository & { rows: Map<string, SessionRow> };

export function inMemorySessions(...initial: SessionRow[]): InMemorySessions {
  const rows = new Map(initial.map((row) => [row.idHash, { ...row }]));
  return {
    rows,
    insert: async (row) => {
      if (rows.has(row.idHash)) throw new Error('duplicate key', { cause: { code: '23505' } });
      rows.set(row.idHash, { ...row });
    },
    find: async (idHash) => rows.get(idHash),
    touch: async (idHash, lastSeenAt, expiresAt) => {
      const row = rows.get(idHash);
      if (row) rows.set(idHash, { ...row, lastSeenAt, expiresAt });
    },
    delete: async (idHash) => {
      rows.delete(idHash);
    },
    deleteExpired: async (now, userId) => {
      for (const [idHash, row] of rows) {
        if (row.userId === userId && row.expiresAt < now) rows.delete(idHash);
      }
    },
  };
}
