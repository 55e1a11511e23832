import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncActivity } from '#server/db/schema/sync.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { createdEntry as entry, minute } from './activity.fixture.ts';
import { ACTIVITY_KEPT, createSyncActivityRepository } from './sync-activity.repository.ts';

const ADA = '00000000-0000-4000-8000-0000000000ad';
const BOB = '00000000-0000-4000-8000-0000000000bb';

/** A user's activity keeps the newest entries: a run adds its own and trims the older ones in one statement. */
for (const database of await testDatabases('sync activity')) {
  describe.skipIf(!database.enabled)(`sync activity (${database.name})`, () => {
    const opened = setUpMigratedDatabase(database);
    beforeAll(async () => {
      await opened()
        .db.insert(users)
        .values(
          [ADA, BOB].map((id) => ({
            id,
            firstName: id,
            displayName: id,
            email: `${id}@example.com`,
            validUntil: minute(0),
          })),
        );
    });

    it('adds a run’s entries and keeps the newest beside them, another user’s untouched', async () => {
      const activity = createSyncActivityRepository(opened().db);
      const rowsOf = async (userId: string) =>
        (await opened().db.select().from(syncActivity).where(eq(syncActivity.userId, userId))).length;
      await activity.add(BOB, [entry('bob-1')], minute(0));
      for (let run = 1; run <= ACTIVITY_KEPT + 5; run++)
        await activity.add(ADA, [entry(`t${run}`)], minute(run));
      // The older entries beyond the kept number went; the last run's own are kept beside them.
      expect(await rowsOf(ADA)).toBe(ACTIVITY_KEPT + 1);

      const at = minute(ACTIVITY_KEPT + 10);
      await activity.add(ADA, [entry('last-a'), entry('last-b'), entry('last-c')], at);
      expect(await rowsOf(ADA)).toBe(ACTIVITY_KEPT + 3);
      const recent = await activity.recent(ADA, ACTIVITY_KEPT);
      expect(recent).toHaveLength(ACTIVITY_KEPT);
      expect(
        recent
          .slice(0, 3)
          .map((row) => row.taskId)
          .sort(),
      ).toEqual(['last-a', 'last-b', 'last-c']);
      // After the three, the newest 97 of the earlier runs' (t105 down to t9).
      expect(recent.at(-1)?.taskId).toBe(`t${ACTIVITY_KEPT + 5 - (ACTIVITY_KEPT - 3) + 1}`);
      // Another user's entries are theirs alone.
      expect((await activity.recent(BOB, 10)).map((row) => row.taskId)).toEqual(['bob-1']);
      // Nothing to add: no statement, nothing trimmed.
      await activity.add(ADA, [], minute(ACTIVITY_KEPT + 20));
      expect(await rowsOf(ADA)).toBe(ACTIVITY_KEPT + 3);
    });
  });
}
