import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todoSettings } from '#server/db/schema/settings.tables.ts';
import { syncHints, syncStates } from '#server/db/schema/sync.tables.ts';
import { fakeClock } from '#server/domain/testing/fake-clock.ts';
import { type JobQueue, startJobQueue } from '#server/jobs/job-queue.ts';
import { USER_SYNC_QUEUE } from '#server/jobs/queue-jobs.ts';
import { testDatabases } from '#server/test/databases.ts';
import { seedUsers } from '#server/test/seed-users.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { createSyncHintRepository } from '../store/sync-hint.repository.ts';
import { createSyncLinkRepository } from '../store/sync-link.repository.ts';
import { createSyncSettingsReader } from '../store/sync-settings.repository.ts';
import { createSyncStateRepository } from '../store/sync-state.repository.ts';
import { createNotificationIntake, type SyncNotice } from './notification-intake.ts';
import { createChannelVerifier } from './sync-channels.ts';

const ADA = '00000000-0000-4000-8000-00000000000a';
const BOB = '00000000-0000-4000-8000-00000000000b';
const CHANNEL_SECRET = 'ada-channel-secret';

/**
 * The intake on the real database and job queue: a burst of notices arriving together is written in
 * batches by the repositories' many-row statements, and leaves each user one queued run that reads
 * what was asked, however often a user was named.
 */
for (const database of await testDatabases('notification intake')) {
  describe.skipIf(!database.enabled)(`notification intake (${database.name})`, () => {
    const opened = setUpMigratedDatabase(database);
    let queue: JobQueue;
    const clock = fakeClock('2026-11-25T09:00:00.000Z');

    beforeAll(async () => {
      const db = opened().db;
      const now = clock();
      await seedUsers(db, [ADA, BOB], now);
      await db.insert(todoSettings).values([
        { userId: ADA, todoistUserId: 'todoist-ada' },
        { userId: BOB, todoistUserId: 'todoist-bob' },
      ]);
      await db.insert(syncStates).values({
        userId: ADA,
        channelId: 'ada-channel',
        channelSecretHash: createHash('sha256').update(CHANNEL_SECRET).digest('base64url'),
        updatedAt: now,
      });
      // The queue is not worked here: the runs the notices ask for stay queued for the test to read.
      queue = await startJobQueue(opened(), {
        reconcileCron: '0 0 1 1 *',
        reconcileJitterSeconds: 0,
        noticeMailRetrySeconds: 5,
        pollingIntervalSeconds: 0.5,
        maxSyncRuns: 4,
        log: pino({ level: 'silent' }),
      });
    });
    afterAll(async () => {
      await queue?.stop();
    });

    it('writes a burst of notices for two users as a few batches: one queued run each, reading what was asked', async () => {
      const db = opened().notificationDb;
      const states = createSyncStateRepository(db);
      const intake = createNotificationIntake({
        settings: createSyncSettingsReader(db),
        channels: createChannelVerifier(states),
        states,
        hints: createSyncHintRepository(db),
        links: createSyncLinkRepository(db),
        queue,
        clock,
      });
      const todoist = (todoistUserId: string, completedOccurrence: string | null = null): SyncNotice => ({
        source: 'todoist',
        todoistUserId,
        completedOccurrence,
      });
      const push = (secret: string): SyncNotice => ({
        source: 'calendar',
        channelId: 'ada-channel',
        secret,
        lifecycle: false,
      });
      const notices: SyncNotice[] = [
        ...Array.from({ length: 20 }, () => todoist('todoist-ada')),
        todoist('todoist-ada', 'recurring-1'),
        todoist('todoist-ada', 'recurring-1'),
        ...Array.from({ length: 20 }, () => push(CHANNEL_SECRET)),
        ...Array.from({ length: 20 }, () => todoist('todoist-bob')),
        todoist('todoist-stranger'),
        push('forged'),
      ];
      const outcomes = await Promise.all(notices.map((notice) => intake.submit(notice)));

      expect(outcomes.filter((outcome) => outcome === 'queued')).toHaveLength(62);
      expect(outcomes.at(-2)).toBe('ignored');
      expect(outcomes.at(-1)).toBe('rejected');
      const pending = await opened()
        .db.select({
          userId: syncStates.userId,
          todoist: syncStates.todoistReadsPending,
          calendar: syncStates.calendarReadsPending,
        })
        .from(syncStates)
        .orderBy(syncStates.userId);
      // Ada was notified from both sides, Bob from Todoist only; every count above 0 means "read it".
      expect(pending.map((row) => [row.userId, row.todoist > 0, row.calendar > 0])).toEqual([
        [ADA, true, true],
        [BOB, true, false],
      ]);
      const jobs = await opened().db.execute(
        sql`select singleton_key as "userId", count(*)::int as "count" from pgboss.job
            where name = ${USER_SYNC_QUEUE} and state = 'created' group by singleton_key order by singleton_key`,
      );
      expect((jobs as unknown as { rows: { userId: string; count: number }[] }).rows).toEqual([
        { userId: ADA, count: 1 },
        { userId: BOB, count: 1 },
      ]);
      const hints = await opened().db.select().from(syncHints);
      expect(hints.map((hint) => [hint.userId, hint.taskId])).toEqual([[ADA, 'recurring-1']]);
    });
  });
}
