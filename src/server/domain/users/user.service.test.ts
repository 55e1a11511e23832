import { describe, expect, it } from 'vitest';
import { fakeClock } from '../testing/fake-clock.ts';
import { inMemoryUsers, userRow } from '../testing/in-memory-users.ts';
import { createUserService, namesOf, type VerifiedIdentity } from './user.service.ts';

const NOW = '2026-03-02T09:00:00.000Z';

function setup(...initial: Parameters<typeof inMemoryUsers>) {
  const clock = fakeClock(NOW);
  const users = inMemoryUsers(...initial);
  const revoked: string[] = [];
  const events: string[] = [];
  const service = createUserService({
    users,
    clock,
    revokeGrants: async (userId) => {
      revoked.push(userId);
      events.push(`revoke ${userId} while the user ${users.rows.has(userId) ? 'exists' : 'is gone'}`);
    },
  });
  return { service, users, clock, revoked, events };
}

const grace: VerifiedIdentity = {
  provider: 'facebook',
  subject: 'fb-grace',
  email: 'grace@example.com',
  name: 'Grace Hopper',
};

describe('user service: sign-in', () => {
  it('creates a first-time user with a 14-day trial from the clock', async () => {
    const { service, users } = setup();
    const { user, created } = await service.signIn(grace);
    expect(created).toBe(true);
    expect(users.rows.get(user.id)).toMatchObject({
      firstName: 'Grace',
      displayName: 'Grace Hopper',
      email: 'grace@example.com',
      facebookId: 'fb-grace',
      googleId: null,
      subscriptionStatus: 'trial',
      validUntil: new Date('2026-03-16T09:00:00.000Z'),
      createdAt: new Date(NOW),
      updatedAt: new Date(NOW),
    });
  });

  it('finds a returning user by the provider’s id and writes nothing when nothing changed', async () => {
    const existing = userRow({
      id: 'u1',
      facebookId: 'fb-grace',
      googleId: null,
      email: 'grace@example.com',
    });
    const { service, users } = setup(existing);
    expect(await service.signIn(grace)).toEqual({ user: existing, created: false });
    expect(users.rows.get('u1')).toEqual(existing);
  });

  it('follows the provider’s latest e-mail address', async () => {
    const existing = userRow({ id: 'u1', facebookId: 'fb-grace', googleId: null, email: 'old@example.com' });
    const { service, users } = setup(existing);
    const { user } = await service.signIn(grace);
    expect(user.email).toBe('grace@example.com');
    expect(users.rows.get('u1')).toMatchObject({ email: 'grace@example.com', updatedAt: new Date(NOW) });
  });

  it('never matches a user of the other provider by e-mail', async () => {
    const google = userRow({ id: 'u1', googleId: 'g-grace', email: 'grace@example.com' });
    const { service, users } = setup(google);
    const { user, created } = await service.signIn(grace);
    expect(created).toBe(true);
    expect(user.id).not.toBe('u1');
    expect(users.rows.size).toBe(2);
  });

  it('returns the user a concurrent first sign-in created', async () => {
    const { service, users } = setup();
    const winner = userRow({ id: 'u-winner', facebookId: 'fb-grace', googleId: null, email: grace.email });
    // The other request inserts between our lookup and our insert.
    const findByProviderId = users.findByProviderId;
    users.findByProviderId = async (provider, subject) => {
      const found = await findByProviderId(provider, subject);
      users.rows.set(winner.id, winner);
      return found;
    };
    expect((await service.signIn(grace)).user).toEqual(winner);
    expect(users.rows.size).toBe(1);
  });
});

describe('user service: account deletion', () => {
  it('revokes the grants first, then deletes the user', async () => {
    const { service, users, events } = setup(userRow({ id: 'u1' }));
    expect(await service.deleteAccount('u1')).toBe(true);
    expect(events).toEqual(['revoke u1 while the user exists']);
    expect(users.rows.has('u1')).toBe(false);
  });

  it('deletes the user even when revoking fails', async () => {
    const users = inMemoryUsers(userRow({ id: 'u1' }));
    const service = createUserService({
      users,
      clock: fakeClock(NOW),
      revokeGrants: () => Promise.reject(new Error('provider down')),
    });
    expect(await service.deleteAccount('u1')).toBe(true);
    expect(users.rows.size).toBe(0);
  });

  it('answers false for a user who is already gone', async () => {
    const { service } = setup();
    expect(await service.deleteAccount('nobody')).toBe(false);
  });
});

describe('namesOf', () => {
  it('takes the given first name when the provider sends one', () => {
    expect(namesOf({ name: 'Ada Lovelace', firstName: 'Augusta', email: 'a@x.org' })).toEqual({
      firstName: 'Augusta',
      displayName: 'Ada Lovelace',
    });
  });

  it('derives the first name from the full name', () => {
    expect(namesOf({ name: '  Grace   Brewster Hopper ', email: 'g@x.org' })).toEqual({
      firstName: 'Grace',
      displayName: 'Grace   Brewster Hopper',
    });
  });

  it('falls back to the e-mail address when no name is shared', () => {
    expect(namesOf({ name: '', email: 'linus@example.com' })).toEqual({
      firstName: 'linus',
      displayName: 'linus',
    });
  });
});
