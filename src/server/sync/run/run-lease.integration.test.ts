import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { syncingUser } from '#server/test/sync-fixtures.ts';
import { createSyncRunLeaseRepository } from '../store/sync-run-lease.repository.ts';
import { createSyncRunStart } from '../store/sync-run-start.repository.ts';
import { RUN_LEASE_MS } from './run-lease.ts';

/** One run per user at a time, across processes (decision 018): the lease under every sync run. */
for (const database of await testDatabases('run leases')) {
  describe.skipIf(!database.enabled)(`run leases (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });
    const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

    it('is one run’s at a time: taken once of two attempts at once, again once given back or lapsed', async () => {
      const user = await syncingUser(app(), 'lease-once@example.com');
      const leases = createSyncRunLeaseRepository(app().database.db);
      const now = new Date();
      const attempts = await Promise.all([
        leases.acquire(user.userId, 'first', later(now, 15_000), now),
        leases.acquire(user.userId, 'second', later(now, 15_000), now),
      ]);
      expect(attempts.map((attempt) => attempt.kind).sort()).toEqual(['busy', 'taken']);
      const holder = attempts[0]?.kind === 'taken' ? 'first' : 'second';
      const other = holder === 'first' ? 'second' : 'first';
      expect(await leases.renew(user.userId, holder, later(now, 30_000))).toBe(true);
      expect(await leases.renew(user.userId, other, later(now, 30_000))).toBe(false);
      const busy = await leases.acquire(user.userId, 'third', later(now, 15_000), now);
      expect(busy).toEqual({ kind: 'busy', until: later(now, 30_000) });

      // Given back: the next run takes it.
      await leases.release(user.userId, holder);
      expect((await leases.acquire(user.userId, 'third', later(now, 15_000), now)).kind).toBe('taken');
      // Lapsed (its process died): taken over, and the dead run can no longer renew it.
      const afterLapse = later(now, 15_001);
      expect((await leases.acquire(user.userId, 'fourth', later(afterLapse, 15_000), afterLapse)).kind).toBe(
        'taken',
      );
      expect(await leases.renew(user.userId, 'third', later(afterLapse, 15_000))).toBe(false);
      // A user that is gone has nothing to hold.
      expect(
        (await leases.acquire('00000000-0000-4000-8000-000000000000', 'x', later(now, 1000), now)).kind,
      ).toBe('no-user');
    });

    it('is taken with the run’s settings and state in one statement, as the lease alone is', async () => {
      const user = await syncingUser(app(), 'lease-start@example.com');
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const leases = createSyncRunLeaseRepository(app().database.db);
      const start = createSyncRunStart(app().database.db);
      const now = new Date();
      const attempts = await Promise.all([
        start.take(user.userId, 'first', later(now, 15_000), now),
        start.take(user.userId, 'second', later(now, 15_000), now),
      ]);
      expect(attempts.map((attempt) => attempt.lease.kind).sort()).toEqual(['busy', 'taken']);
      const taken = attempts.find((attempt) => attempt.lease.kind === 'taken');
      // Taken with what the run starts from: sync may run, and the state the first run saved.
      expect(taken?.rows?.context.runnable).toBe(true);
      expect(taken?.rows?.state).toMatchObject({ userId: user.userId, calendarProvider: 'google' });
      expect(taken?.rows?.state?.todoistToken).toEqual(expect.any(String));
      const holder = attempts[0]?.lease.kind === 'taken' ? 'first' : 'second';
      // Held: busy until the holder's time, nothing read for the run.
      expect(await start.take(user.userId, 'third', later(now, 15_000), now)).toEqual({
        lease: { kind: 'busy', until: later(now, 15_000) },
        rows: null,
      });
      await leases.release(user.userId, holder);
      expect((await start.take(user.userId, 'third', later(now, 15_000), now)).lease.kind).toBe('taken');
      // Lapsed: taken over.
      const afterLapse = later(now, 15_001);
      const takenOver = await start.take(user.userId, 'fourth', later(afterLapse, 15_000), afterLapse);
      expect(takenOver.lease.kind).toBe('taken');
      expect(await leases.renew(user.userId, 'third', later(afterLapse, 15_000))).toBe(false);
      expect(await start.take('00000000-0000-4000-8000-000000000000', 'x', later(now, 1000), now)).toEqual({
        lease: { kind: 'no-user' },
        rows: null,
      });
    });

    it('holds a run back while another run of the user holds the lease, and lets it go once given back', async () => {
      const user = await syncingUser(app(), 'lease-run@example.com');
      const leases = createSyncRunLeaseRepository(app().database.db);
      const now = new Date();
      await leases.acquire(user.userId, 'another-run', later(now, RUN_LEASE_MS), now);
      const held = await user.run();
      expect(held.status).toBe('retry-later');
      expect(held.status === 'retry-later' ? held.afterMs : 0).toBeLessThanOrEqual(1000);
      await leases.release(user.userId, 'another-run');
      expect(await user.run()).toMatchObject({ status: 'synced' });
      // A run gives the lease back at its end: the next one takes it at once.
      expect(await user.run()).toMatchObject({ status: 'synced' });
    });
  });
}
