import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { testDatabases } from '#server/test/databases.ts';
import { seedUsers } from '#server/test/seed-users.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { NO_REFUSAL, type SyncLink } from '../sync-link.ts';
import { createSyncLinkRepository } from './sync-link.repository.ts';

const ADA = '00000000-0000-4000-8000-0000000000ad';
const NOW = new Date(Date.UTC(2026, 11, 4, 9));
const WORK = { provider: 'microsoft', accountId: 'ada-work' } as const;

/** A pair of task `taskId` and event `eventId` in `calendarId`, as the sync records it. */
const pair = (taskId: string, eventId: string, calendarId: string): Omit<SyncLink, 'id'> => ({
  ...NO_REFUSAL,
  taskId,
  eventId,
  calendarId,
  origin: 'task',
  pendingKey: null,
  generation: 0,
  taskVersion: 'v1',
  eventVersion: 'e1',
  titleHash: 'h',
  startAt: NOW,
  allDay: false,
  taskMinutes: 30,
  eventMinutes: 30,
  completed: false,
  marked: false,
  appearanceHash: 'a',
  taskMeta: { labels: [], dueTimezone: null, recurrence: null },
});

/**
 * Pairs left behind in a calendar account wait there, parked (decision 028): out of the sync's pairs,
 * beside a pair of the same task that is the sync's, until resumed; removed with their account, and
 * at once when their account is no longer connected.
 */
for (const database of await testDatabases('parked sync links')) {
  describe.skipIf(!database.enabled)(`parked sync links (${database.name})`, () => {
    const opened = setUpMigratedDatabase(database);
    beforeAll(async () => {
      await seedUsers(opened().db, [ADA], NOW);
    });

    it('parks pairs in their account, keeps them out of the sync’s, resumes them, and forgets them with the account', async () => {
      const { db } = opened();
      const links = createSyncLinkRepository(db);
      const [work] = await db
        .insert(integrations)
        .values({
          userId: ADA,
          kind: 'calendar',
          provider: WORK.provider,
          accountId: WORK.accountId,
          position: 1,
          accessTokenEncrypted: 'sealed',
          keyId: 'k1',
        })
        .returning();
      const write = await links.insertPending(ADA, pair('t1', 'e1', 'work-cal'));
      const read = await links.insertPending(ADA, pair('t2', 'e2', 'work-cal'));
      await links.park(ADA, [write.id, read.id], WORK, NOW);
      expect(await links.all(ADA)).toEqual([]);
      expect(await links.knownVersions([{ userId: ADA, eventId: 'e1' }])).toEqual(new Map());

      // The same task's pair of the sync's, in another account, sits beside the parked one.
      const elsewhere = await links.insertPending(ADA, pair('t1', 'g1', 'ada@example.com'));
      expect((await links.parked(ADA, WORK, 'work-cal')).map((link) => link.taskId)).toEqual(
        [write, read].sort((a, b) => (a.id < b.id ? -1 : 1)).map((link) => link.taskId),
      );
      expect(await links.parked(ADA, WORK, 'another-cal')).toEqual([]);
      expect(await links.parked(ADA, { ...WORK, provider: 'google' }, 'work-cal')).toEqual([]);

      await links.remove(ADA, elsewhere.id);
      await links.resume(ADA, [write.id], NOW);
      expect(await links.all(ADA)).toEqual([expect.objectContaining({ id: write.id, eventId: 'e1' })]);
      expect(await links.parked(ADA, WORK, 'work-cal')).toEqual([expect.objectContaining({ id: read.id })]);

      // The account removed: what waited in it is forgotten; the sync's pairs stay.
      await db.delete(integrations).where(eq(integrations.id, work?.id ?? ''));
      expect(await links.parked(ADA, WORK, 'work-cal')).toEqual([]);
      expect((await links.all(ADA)).map((link) => link.id)).toEqual([write.id]);

      // An account no longer connected has nothing to wait for: its pairs are removed.
      await links.park(ADA, [write.id], WORK, NOW);
      expect(await links.all(ADA)).toEqual([]);
      await links.resume(ADA, [write.id], NOW);
      expect(await links.all(ADA)).toEqual([]);
    });
  });
}
