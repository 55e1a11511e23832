import { sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { RECONCILE_QUEUE, startJobQueue } from './job-queue.ts';

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
        pollingIntervalSeconds: 0.5,
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
