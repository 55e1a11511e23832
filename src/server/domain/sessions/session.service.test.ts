import { describe, expect, it } from 'vitest';
import { fakeClock } from '../testing/fake-clock.ts';
import { inMemorySessions } from '../testing/in-memory-sessions.ts';
import { createSessionService, hashSessionId } from './session.service.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const START = '2026-03-02T09:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(START) + ms);

function setup() {
  const clock = fakeClock(START);
  const sessions = inMemorySessions();
  return { service: createSessionService({ sessions, clock }), sessions, clock };
}

describe('session service', () => {
  it('issues a random 128-bit id and stores only its hash, expiring after 14 idle days', async () => {
    const { service, sessions } = setup();
    const { sessionId, expiresAt } = await service.create('u1');
    expect(Buffer.from(sessionId, 'base64url')).toHaveLength(16);
    expect(expiresAt).toEqual(at(14 * DAY));
    expect([...sessions.rows.values()]).toEqual([
      {
        idHash: hashSessionId(sessionId),
        userId: 'u1',
        createdAt: at(0),
        lastSeenAt: at(0),
        expiresAt: at(14 * DAY),
      },
    ]);
    expect([...sessions.rows.keys()]).not.toContain(sessionId);
    expect((await service.create('u1')).sessionId).not.toBe(sessionId);
  });

  it('resolves a live session to its user', async () => {
    const { service } = setup();
    const { sessionId } = await service.create('u1');
    expect(await service.resolve(sessionId)).toBe('u1');
    expect(await service.resolve('not-a-session')).toBeNull();
  });

  it('slides the idle expiry, writing last-seen at most every 10 minutes', async () => {
    const { service, sessions, clock } = setup();
    const { sessionId } = await service.create('u1');
    const row = () => sessions.rows.get(hashSessionId(sessionId));
    clock.advance(10 * MINUTE);
    await service.resolve(sessionId);
    expect(row()?.lastSeenAt).toEqual(at(0));
    clock.advance(1);
    await service.resolve(sessionId);
    expect(row()).toMatchObject({
      lastSeenAt: at(10 * MINUTE + 1),
      expiresAt: at(10 * MINUTE + 1 + 14 * DAY),
    });
  });

  it('ends a session after 14 idle days, and deletes it', async () => {
    const { service, sessions, clock } = setup();
    const { sessionId } = await service.create('u1');
    clock.advance(14 * DAY - 1);
    expect(await service.resolve(sessionId)).toBe('u1');
    clock.set(at(14 * DAY - 1 + 14 * DAY).toISOString());
    expect(await service.resolve(sessionId)).toBeNull();
    expect(sessions.rows.size).toBe(0);
  });

  it('ends a session 60 days after sign-in however often it is used', async () => {
    const { service, clock } = setup();
    const { sessionId } = await service.create('u1');
    for (let day = 1; day < 60; day += 1) {
      clock.set(at(day * DAY).toISOString());
      expect(await service.resolve(sessionId), `day ${day}`).toBe('u1');
    }
    clock.set(at(60 * DAY).toISOString());
    expect(await service.resolve(sessionId)).toBeNull();
  });

  it('clears the user’s expired sessions when a new one is created, and no one else’s', async () => {
    const { service, sessions, clock } = setup();
    const old = await service.create('u1');
    const otherUser = await service.create('u2');
    clock.advance(15 * DAY);
    const fresh = await service.create('u1');
    expect([...sessions.rows.keys()].sort()).toEqual(
      [hashSessionId(otherUser.sessionId), hashSessionId(fresh.sessionId)].sort(),
    );
    expect(sessions.rows.has(hashSessionId(old.sessionId))).toBe(false);
  });

  it('destroys a session on logout', async () => {
    const { service, sessions } = setup();
    const { sessionId } = await service.create('u1');
    await service.destroy(sessionId);
    expect(sessions.rows.size).toBe(0);
    expect(await service.resolve(sessionId)).toBeNull();
  });
});
