import { describe, expect, it } from 'vitest';
import type { SessionRow } from '#server/db/schema/sessions.table.ts';
import { rememberedSessions } from './remembered-sessions.ts';
import type { SessionRepository } from './session.repository.ts';

const AT = new Date('2026-12-04T08:00:00Z');
const row = (idHash: string, userId: string, expiresAt = new Date('2026-12-18T08:00:00Z')): SessionRow => ({
  idHash,
  userId,
  createdAt: AT,
  lastSeenAt: AT,
  expiresAt,
});

/** The database's table, counting its reads. */
function storedSessions() {
  const table = new Map<string, SessionRow>();
  let reads = 0;
  const repository: SessionRepository = {
    insert: async (session) => void table.set(session.idHash, session),
    find: async (idHash) => {
      reads += 1;
      return table.get(idHash);
    },
    touch: async (idHash, lastSeenAt, expiresAt) => {
      const session = table.get(idHash);
      if (session) table.set(idHash, { ...session, lastSeenAt, expiresAt });
    },
    delete: async (idHash) => void table.delete(idHash),
    deleteExpired: async (now, userId) => {
      for (const [idHash, session] of table) {
        if (session.userId === userId && session.expiresAt < now) table.delete(idHash);
      }
    },
  };
  return { repository, table, reads: () => reads };
}

describe('sessions remembered in memory', () => {
  it('reads a session from the database once, then from memory, with its touches', async () => {
    const stored = storedSessions();
    stored.table.set('a', row('a', 'ada'));
    const sessions = rememberedSessions(stored.repository);
    expect(await sessions.find('a')).toEqual(row('a', 'ada'));
    const later = new Date('2026-12-05T08:00:00Z');
    await sessions.touch('a', later, new Date('2026-12-19T08:00:00Z'));
    expect(await sessions.find('a')).toMatchObject({ lastSeenAt: later });
    expect(stored.reads()).toBe(1);
    expect(stored.table.get('a')?.lastSeenAt).toEqual(later);
  });

  it('forgets a session at once when it is signed out, and a missing one is read again', async () => {
    const stored = storedSessions();
    const sessions = rememberedSessions(stored.repository);
    await sessions.insert(row('a', 'ada'));
    expect(await sessions.find('a')).toBeDefined();
    await sessions.delete('a');
    expect(await sessions.find('a')).toBeUndefined();
    expect(stored.table.has('a')).toBe(false);
    // Not remembered as missing: a row written meanwhile is found.
    stored.table.set('a', row('a', 'ada'));
    expect(await sessions.find('a')).toBeDefined();
  });

  it('forgets the expired sessions of a user the database deleted, and every session of a deleted user', async () => {
    const stored = storedSessions();
    const sessions = rememberedSessions(stored.repository);
    await sessions.insert(row('old', 'ada', new Date('2026-12-01T00:00:00Z')));
    await sessions.insert(row('new', 'ada'));
    await sessions.insert(row('bob', 'bob'));
    await sessions.deleteExpired(AT, 'ada');
    expect(await sessions.find('old')).toBeUndefined();
    expect(await sessions.find('new')).toBeDefined();

    stored.table.clear(); // the users' rows deleted, their sessions by cascade
    sessions.forgetUser('ada');
    expect(await sessions.find('new')).toBeUndefined();
    // Another user's session is still remembered (this process wrote nothing of it).
    expect(await sessions.find('bob')).toBeDefined();
  });

  it('keeps at most its bound, forgetting the session read longest ago', async () => {
    const stored = storedSessions();
    const sessions = rememberedSessions(stored.repository, 2);
    await sessions.insert(row('a', 'ada'));
    await sessions.insert(row('b', 'bob'));
    await sessions.find('a');
    await sessions.insert(row('c', 'cy'));
    const reads = stored.reads();
    await sessions.find('a');
    await sessions.find('c');
    expect(stored.reads()).toBe(reads);
    await sessions.find('b');
    expect(stored.reads()).toBe(reads + 1);
  });
});
