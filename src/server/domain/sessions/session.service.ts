import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.port.ts';
import type { SessionRepository } from './session.repository.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const SESSION_IDLE_TIMEOUT_MS = 14 * DAY_MS;
export const SESSION_ABSOLUTE_TIMEOUT_MS = 60 * DAY_MS;
/** Last-seen is written at most this often, so that reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 10 * MINUTE_MS;

export type SessionService = ReturnType<typeof createSessionService>;

/**
 * Server-side sessions: the cookie holds a random 128-bit id, the database only its SHA-256 hash,
 * so a leaked database copy cannot be replayed as a cookie.
 */
export function createSessionService(deps: { sessions: SessionRepository; clock: Clock }) {
  return {
    async create(userId: string): Promise<{ sessionId: string; expiresAt: Date }> {
      const sessionId = randomBytes(16).toString('base64url');
      const now = deps.clock();
      const expiresAt = expiryFrom(now, now);
      await deps.sessions.deleteExpired(now, userId);
      await deps.sessions.insert({
        idHash: hashSessionId(sessionId),
        userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
      });
      return { sessionId, expiresAt };
    },

    /** Returns the user id of a live session, sliding its idle expiry; deletes it once expired. */
    async resolve(sessionId: string): Promise<string | null> {
      const idHash = hashSessionId(sessionId);
      const row = await deps.sessions.find(idHash);
      if (!row) return null;
      const now = deps.clock();
      if (row.expiresAt <= now) {
        await deps.sessions.delete(idHash);
        return null;
      }
      if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
        await deps.sessions.touch(idHash, now, expiryFrom(row.createdAt, now));
      }
      return row.userId;
    },

    async destroy(sessionId: string): Promise<void> {
      await deps.sessions.delete(hashSessionId(sessionId));
    },
  };
}

export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url');
}

function expiryFrom(createdAt: Date, lastSeenAt: Date): Date {
  return new Date(
    Math.min(
      createdAt.getTime() + SESSION_ABSOLUTE_TIMEOUT_MS,
      lastSeenAt.getTime() + SESSION_IDLE_TIMEOUT_MS,
    ),
  );
}
