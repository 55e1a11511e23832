import { describe, expect, it } from 'vitest';
import { createSessionRepository } from '#server/domain/sessions/session.repository.ts';
import {
  createSessionService,
  hashSessionId,
  SESSION_IDLE_TIMEOUT_MS,
} from '#server/domain/sessions/session.service.ts';
import { createUserRepository } from '#server/domain/users/user.repository.ts';
import { createUserService, type VerifiedIdentity } from '#server/domain/users/user.service.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { applyMigrations, readMigrationStatus } from './migrations.ts';

const DAY_MS = 86_400_000;

const ada: VerifiedIdentity = {
  provider: 'google',
  subject: 'g-1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
};

for (const testDb of await testDatabases('users and sessions')) {
  describe.skipIf(!testDb.enabled)(`users and sessions on ${testDb.name}`, () => {
    const database = setUpMigratedDatabase(testDb);
    let now = new Date('2026-11-01T10:00:00Z');
    const clock = () => now;

    const services = () => ({
      users: createUserService({ users: createUserRepository(database().db), clock }),
      sessions: createSessionService({ sessions: createSessionRepository(database().db), clock }),
    });
    /** The services, and a user signed in for the first time with Ada's identity under `subject`. */
    const signedIn = async (subject: string) => {
      const { users, sessions } = services();
      const { user } = await users.signIn({ ...ada, subject });
      return { users, sessions, user };
    };

    it('applies every migration, and applying again changes nothing', async () => {
      await applyMigrations(database());
      const status = await readMigrationStatus(database());
      expect(status.applied).toBe(status.expected);
      expect(status.expected).toBeGreaterThan(0);
    });

    it('creates the user at first sign-in with a 14-day trial', async () => {
      const { users } = services();
      const { user, created } = await users.signIn(ada);
      expect(created).toBe(true);
      expect(user).toMatchObject({
        firstName: 'Ada',
        displayName: 'Ada Lovelace',
        email: 'ada@example.com',
        googleId: 'g-1',
        facebookId: null,
        syncActive: false,
        welcomeWizardSeen: false,
        subscriptionStatus: 'trial',
        canceled: false,
        planInterval: null,
      });
      expect(user.validUntil.getTime()).toBe(now.getTime() + 14 * DAY_MS);
    });

    it('finds the same user again, and keeps identities of other providers apart', async () => {
      const { users } = services();
      const first = await users.signIn(ada);
      const again = await users.signIn({ ...ada, email: 'ada@new.example.com' });
      expect(again.created).toBe(false);
      expect(again.user.id).toBe(first.user.id);
      expect((await users.findById(first.user.id))?.email).toBe('ada@new.example.com');

      const facebook = await users.signIn({ ...ada, provider: 'facebook', subject: 'f-1' });
      expect(facebook.created).toBe(true);
      expect(facebook.user.id).not.toBe(first.user.id);
      expect(facebook.user.facebookId).toBe('f-1');
    });

    it('creates one user when the same first sign-in races itself', async () => {
      const { users } = services();
      const identity: VerifiedIdentity = { ...ada, subject: 'g-race' };
      const results = await Promise.all([
        users.signIn(identity),
        users.signIn(identity),
        users.signIn(identity),
      ]);
      expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
    });

    it('keeps only a hash of the session id, and expires idle sessions', async () => {
      const { sessions, user } = await signedIn('g-session');
      const { sessionId } = await sessions.create(user.id);
      expect(await sessions.resolve(sessionId)).toBe(user.id);
      expect(await createSessionRepository(database().db).find(sessionId)).toBeUndefined();
      expect(await createSessionRepository(database().db).find(hashSessionId(sessionId))).toMatchObject({
        userId: user.id,
        idHash: hashSessionId(sessionId),
      });

      const start = now;
      now = new Date(start.getTime() + SESSION_IDLE_TIMEOUT_MS + 1000);
      expect(await sessions.resolve(sessionId)).toBeNull();
      now = start;
      expect(await sessions.resolve(sessionId)).toBeNull();
    });

    it('slides the idle expiry while the session is used', async () => {
      const { sessions, user } = await signedIn('g-slide');
      const start = now;
      const { sessionId } = await sessions.create(user.id);
      for (let day = 1; day <= 3; day++) {
        now = new Date(start.getTime() + day * (SESSION_IDLE_TIMEOUT_MS - DAY_MS));
        expect(await sessions.resolve(sessionId)).toBe(user.id);
      }
      now = start;
    });

    it('deletes the user with every session, and nobody else', async () => {
      const { users, sessions, user } = await signedIn('g-delete');
      const { user: other } = await users.signIn({ ...ada, subject: 'g-other' });
      const mine = await sessions.create(user.id);
      const theirs = await sessions.create(other.id);
      expect(await users.deleteAccount(user.id)).toBe(true);
      expect(await users.findById(user.id)).toBeUndefined();
      expect(await sessions.resolve(mine.sessionId)).toBeNull();
      expect(await sessions.resolve(theirs.sessionId)).toBe(other.id);
    });
  });
}
