import { sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { startJobQueue } from './job-queue.ts';
import { RECONCILE_QUEUE, type SyncTrigger } from './queue-jobs.ts';

const idle = {
  sync: async () => ({}),
  reconcile: async () => [],
  stripeEvent: async () => {},
  noticeMail: async () => {},
};

/** The reconcile's schedule is stored in the queue's tables: set by a worker, removed when switched off. */
for (const database of await testDatabases('job queue')) {
  describe.skipIf(!database.enabled)(`job queue schedule (${database.name})`, () => {
    const opened = setUpMigratedDatabase(database);

    const scheduleOf = async () => {
      const result = await opened().db.execute(
        sql`select cron from pgboss.schedule where name = ${RECONCILE_QUEUE}`,
      );
      return (result as unknown as { rows: { cron: string }[] }).rows;
    };

    const workWith = async (reconcileCron: string | null) => {
      const queue = await startJobQueue(opened(), {
        reconcileCron,
        reconcileJitterSeconds: 0,
        noticeMailRetrySeconds: 5,
        pollingIntervalSeconds: 0.5,
        maxSyncRuns: 4,
        log: pino({ level: 'silent' }),
      });
      await queue.work(idle);
      await queue.stop();
    };

    it('schedules the reconcile when a worker starts, and removes a stored schedule when it is off', async () => {
      await workWith('*/15 * * * *');
      expect((await scheduleOf()).map((row) => row.cron)).toEqual(['*/15 * * * *']);
      await workWith(null);
      expect(await scheduleOf()).toEqual([]);
    });

    it('keeps the reconcile alive by heartbeat, so a worker killed while it spreads the runs frees it in seconds', async () => {
      await workWith(null);
      const result = await opened().db.execute(
        sql`select heartbeat_seconds from pgboss.queue where name = ${RECONCILE_QUEUE}`,
      );
      const [queue] = (result as unknown as { rows: { heartbeat_seconds: number | null }[] }).rows;
      expect(queue?.heartbeat_seconds).toBe(10);
    });
  });
}

/** Live changes before routine work: a user's change is run before the reconcile runs waiting. */
for (const database of await testDatabases('job queue priorities')) {
  describe.skipIf(!database.enabled)(`job queue priorities (${database.name})`, () => {
    const opened = setUpMigratedDatabase(database);
    const queueWithFourLanes = () =>
      startJobQueue(opened(), {
        reconcileCron: null,
        reconcileJitterSeconds: 0,
        noticeMailRetrySeconds: 5,
        pollingIntervalSeconds: 0.5,
        maxSyncRuns: 4,
        log: pino({ level: 'silent' }),
      });

    it("runs a user's change before the reconcile runs waiting, also one that folded into a reconcile job", async () => {
      const users = Array.from({ length: 8 }, (_, n) => `00000000-0000-4000-8000-00000000000${n}`);
      const live = '00000000-0000-4000-8000-0000000000aa';
      const started: { userId: string; trigger: SyncTrigger }[] = [];
      const releases: (() => void)[] = [];
      const queue = await queueWithFourLanes();
      try {
        await queue.work({
          ...idle,
          reconcile: async () => users,
          // The first six runs wait until the test lets them end: the lanes stay busy while jobs queue up.
          sync: async (userId, trigger) => {
            started.push({ userId, trigger });
            if (started.length <= 6) await new Promise<void>((resolve) => releases.push(resolve));
            return {};
          },
        });
        await queue.reconcileNow();
        const waitFor = async (check: () => boolean) => {
          const deadline = Date.now() + 15_000;
          while (!check()) {
            if (Date.now() > deadline) throw new Error(`timed out; started: ${JSON.stringify(started)}`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        };
        const waitingJobs = async () => {
          const result = await opened().db.execute(
            sql`select count(*)::int as n from pgboss.job where name = 'user-runs' and state = 'created'`,
          );
          return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
        };
        // Four reconcile runs hold the four lanes; the other four users' reconcile jobs wait.
        await waitFor(() => started.length === 4);
        const deadline = Date.now() + 15_000;
        while ((await waitingJobs()) < 4 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        const waiting = users.filter((user) => !started.some((run) => run.userId === user));
        const folded = waiting[2] as string;
        await queue.requestSyncs([live]);
        await queue.requestSyncs([folded]);

        // Each lane set free takes the most urgent job: the changes first, in the order they came.
        releases.shift()?.();
        await waitFor(() => started.length === 5);
        releases.shift()?.();
        await waitFor(() => started.length === 6);
        expect(started.slice(4)).toEqual([
          { userId: folded, trigger: 'change' },
          { userId: live, trigger: 'change' },
        ]);
        expect(started.slice(0, 4).every((run) => run.trigger === 'reconcile')).toBe(true);
        for (const release of releases.splice(0)) release();
        // The reconcile runs come after, every user's once.
        await waitFor(() => started.length === 9);
        expect(new Set(started.map((run) => run.userId))).toEqual(new Set([...users, live]));
      } finally {
        for (const release of releases) release();
        await queue.stop();
      }
    }, 60_000);

    it('queues a reconcile run a provider held back again as a reconcile run, and a change run as a retry', async () => {
      const [visited, changed] = userIds(2, 600) as [string, string];
      const runs: SyncTrigger[] = [];
      const queue = await queueWithFourLanes();
      const again = async () => {
        const result = await opened().db.execute(
          sql`select singleton_key as "userId", priority, data->>'trigger' as trigger from pgboss.job
               where name = 'user-runs' and state = 'created' and start_after > now()
                 and singleton_key in (${visited}, ${changed}) order by priority`,
        );
        return (result as unknown as { rows: { userId: string; priority: number; trigger: string }[] }).rows;
      };
      try {
        await queue.work({
          ...idle,
          reconcile: async () => [visited],
          sync: async (_userId, trigger) => {
            runs.push(trigger);
            return { retryAfterMs: 60_000 };
          },
        });
        await queue.reconcileNow();
        await queue.requestSyncs([changed]);
        await waitFor(() => runs.length === 2, 'both runs');
        const deadline = Date.now() + 15_000;
        while ((await again()).length < 2 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await again()).toEqual([
          { userId: visited, priority: 0, trigger: 'reconcile' },
          { userId: changed, priority: 10, trigger: 'retry' },
        ]);
      } finally {
        await queue.stop();
      }
    }, 60_000);

    it("keeps one waiting run per user: a request raises the user's waiting run, or queues one at the live priority", async () => {
      const [waitingUser, newUser] = userIds(2, 500) as [string, string];
      const queue = await queueWithFourLanes();
      const waitingJobs = async () => {
        const result = await opened().db.execute(
          sql`select singleton_key as "userId", priority, data->>'trigger' as trigger, start_after <= now() as due
               from pgboss.job
               where name = 'user-runs' and state = 'created' and singleton_key in (${waitingUser}, ${newUser})
               order by singleton_key`,
        );
        return (result as unknown as { rows: { userId: string; priority: number; trigger: string | null }[] })
          .rows;
      };
      try {
        await queue.requestSyncs([waitingUser]);
        // As the reconcile queues it, held back an hour for the app's budget: the routine priority, its
        // trigger named.
        await opened().db.execute(
          sql`update pgboss.job set priority = 0, data = data || '{"trigger":"reconcile"}'::jsonb,
                 start_after = now() + interval '1 hour'
               where name = 'user-runs' and singleton_key = ${waitingUser}`,
        );
        await queue.requestSyncs([waitingUser, newUser, waitingUser]);
        await queue.requestSyncs([newUser, waitingUser]);
        expect(await waitingJobs()).toEqual(
          [waitingUser, newUser].sort().map((userId) => ({ userId, priority: 10, trigger: null, due: true })),
        );
      } finally {
        await queue.stop();
      }
    }, 60_000);
  });
}

/** Until `check` holds (checked every 20 ms), or fails after 15 s naming `what`. */
async function waitFor(check: () => boolean, what: string) {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `count` user ids from `from` on. */
const userIds = (count: number, from = 0) =>
  Array.from({ length: count }, (_, n) => `00000000-0000-4000-8000-${String(from + n).padStart(12, '0')}`);

/** Runs in flight follow the work: more lanes while every lane is busy, fewer once it is done. */
for (const database of await testDatabases('job queue lanes')) {
  describe.skipIf(!database.enabled)(`sync lanes (${database.name})`, () => {
    const opened = setUpMigratedDatabase(database);
    /** A queue allowing twelve runs at once, its event loop's load as `loopLoad` says (when given). */
    const lanesQueue = (loopLoad?: () => number) =>
      startJobQueue(opened(), {
        reconcileCron: null,
        reconcileJitterSeconds: 0,
        noticeMailRetrySeconds: 5,
        pollingIntervalSeconds: 0.5,
        maxSyncRuns: 12,
        ...(loopLoad ? { loopLoad } : {}),
        log: pino({ level: 'silent' }),
      });

    it('opens lanes while jobs wait, up to the most allowed, and closes them when the work is done', async () => {
      const users = userIds(20);
      let started = 0;
      let running = 0;
      let mostAtOnce = 0;
      let finished = 0;
      const releases: (() => void)[] = [];
      const queue = await lanesQueue();
      try {
        await queue.work({
          ...idle,
          // Runs wait for the test, as runs wait for providers: the first twelve hold their lanes.
          sync: async () => {
            started += 1;
            running += 1;
            mostAtOnce = Math.max(mostAtOnce, running);
            if (started <= 12) await new Promise<void>((resolve) => releases.push(resolve));
            running -= 1;
            finished += 1;
            return {};
          },
        });
        expect(queue.syncLanes()).toMatchObject({ open: 4, busy: 0 });
        await queue.requestSyncs(users);
        await waitFor(() => running === 12, 'twelve runs at once');
        expect(queue.syncLanes()).toMatchObject({ open: 12, busy: 12 });
        // The most allowed: no thirteenth run starts while the twelve hold their lanes.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(running).toBe(12);
        for (const release of releases.splice(0)) release();
        await waitFor(() => finished === 20, 'every run');
        expect(mostAtOnce).toBe(12);
        // Lanes starved for work close: back to the four a quiet process keeps.
        await waitFor(() => queue.syncLanes().busy === 0, 'no run in flight');
        await waitFor(() => queue.syncLanes().open === 4, 'the four lanes of a quiet process');
      } finally {
        for (const release of releases) release();
        await queue.stop();
      }
    }, 60_000);

    it('opens no lane while the event loop is saturated, and opens them once it has room again', async () => {
      const users = userIds(12, 100);
      let load = 0.95;
      let running = 0;
      let finished = 0;
      const releases: (() => void)[] = [];
      const queue = await lanesQueue(() => load);
      try {
        await queue.work({
          ...idle,
          sync: async () => {
            running += 1;
            await new Promise<void>((resolve) => releases.push(resolve));
            running -= 1;
            finished += 1;
            return {};
          },
        });
        await queue.requestSyncs(users);
        await waitFor(() => running === 4, 'the four lanes busy');
        // Saturated: eight jobs wait, and no fifth lane opens for them.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(queue.syncLanes()).toMatchObject({ open: 4, busy: 4 });
        // Room again: the next run that starts opens another lane, and so on while all are busy.
        load = 0.2;
        releases.shift()?.();
        await waitFor(() => running === 11, 'every waiting job running');
        expect(queue.syncLanes().open).toBeGreaterThanOrEqual(11);
        // Saturated again: lanes close as their runs end, down to the four a process keeps.
        load = 0.95;
        for (const release of releases.splice(0)) release();
        await waitFor(() => finished === 12, 'every run');
        await waitFor(() => queue.syncLanes().busy === 0, 'no run in flight');
        expect(queue.syncLanes().open).toBe(4);
      } finally {
        for (const release of releases) release();
        await queue.stop();
      }
    }, 60_000);
  });
}
