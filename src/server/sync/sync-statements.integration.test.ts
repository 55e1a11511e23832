import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { syncStates } from '#server/db/schema/sync.tables.ts';
import { startPgBoss } from '#server/jobs/pg-boss-queues.ts';
import { USER_SYNC_QUEUE } from '#server/jobs/queue-jobs.ts';
import { userJob } from '#server/jobs/user-sync-jobs.ts';
import { testDatabases } from '#server/test/databases.ts';
import { countStatements, type StatementCounter } from '#server/test/statement-counter.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';

/**
 * What one change costs the database: on the embedded default every statement holds its one
 * connection, so every statement a run issues delays the webhooks' acknowledgements and the API's
 * answers (docs/performance.md, "Statements of a run"). A task retitled is one event update; the run
 * that carries it over, with the queue's fetch of its job and the job's completion, must stay within
 * this many statements.
 */
const MOST_STATEMENTS = 7;

for (const database of await testDatabases('sync statements')) {
  describe.skipIf(!database.enabled)(`the statements of a one-change run (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });
    let counter: StatementCounter | undefined;
    afterAll(() => counter?.restore());

    /** What the Todoist webhook records (no app listening here, so none arrive by themselves). */
    const notified = (userId: string) =>
      app()
        .database.db.update(syncStates)
        .set({ todoistReadsPending: 1 })
        .where(eq(syncStates.userId, userId));
    /** The run as the worker starts it for a queued job. */
    const queueRun = (userId: string) =>
      app().sync.engine.run(userId, { spaced: true, routine: false, requestedSidesOnly: true });

    it('a task retitled: one event update, its run and its job within the count', async () => {
      const user = await syncingUser(app(), 'statements@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Draft', due.day, 9, ['30min']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 1 });
      // A first one-change run, so the one counted finds everything a user's runs have set up.
      await user.todoist.updateTask(task.id, { content: 'Draft it' });
      await notified(user.userId);
      expect(await queueRun(user.userId)).toMatchObject({ status: 'synced', writes: 1 });

      counter = countStatements(app().database);
      await user.todoist.updateTask(task.id, { content: 'Draft the plan' });
      await notified(user.userId);
      const run = await counter.during(() => queueRun(user.userId));
      expect(run.result).toMatchObject({ status: 'synced', writes: 1, reads: ['todoist'] });
      expect((await user.events()).map((event) => event.summary)).toEqual(['Draft the plan']);

      // The queue's part, as a worker's lane does it: fetch the job, run it, complete it.
      const boss = await startPgBoss(app().database, {
        reconcileJitterSeconds: 0,
        noticeMailRetrySeconds: 5,
        log: pino({ level: 'silent' }),
      });
      try {
        const { data, ...options } = userJob(user.userId);
        await boss.send(USER_SYNC_QUEUE, data, options);
        const queue = await counter.during(async () => {
          const [job] = await boss.fetch(USER_SYNC_QUEUE, {
            batchSize: 1,
            priority: true,
            orderByCreatedOn: true,
            groupConcurrency: 1,
          });
          if (!job) throw new Error('no job fetched');
          await boss.complete(USER_SYNC_QUEUE, job.id);
          return job;
        });
        const statements = [...queue.statements, ...run.statements];
        // The counter sees the run's own statements: the pair's update among them.
        expect(run.statements.some((text) => text.startsWith('update "sync_links"'))).toBe(true);
        expect(queue.statements).toHaveLength(2);
        expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(MOST_STATEMENTS);
      } finally {
        await boss.stop({ graceful: false, close: true });
      }
    });
  });
}
