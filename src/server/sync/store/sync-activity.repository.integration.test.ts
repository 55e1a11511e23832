import { eq } from 'drizzle-orm';
import { beforeAll, describe, it } from 'vitest';
import { syncActivity } from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { seedUsers } from '#server/test/seed-users.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { playKeepsTheNewest, playLastHeld } from './activity.fixture.ts';
import { createSyncActivityRepository } from './sync-activity.repository.ts';

const ADA = '00000000-0000-4000-8000-0000000000ad';
const BOB = '00000000-0000-4000-8000-0000000000bb';

/** A user's activity keeps the newest entries: a run adds its own and trims the older ones in one statement. */
for (const database of await testDatabases('sync activity')) {
  describe.skipIf(!database.enabled)(`sync activity (${database.name})`, () => {
    const opened = setUpMigratedDatabase(database);
    beforeAll(async () => {
      await seedUsers(opened().db, [ADA, BOB], new Date(Date.UTC(2026, 10, 28)));
    });

    it('adds a run’s entries and keeps the newest beside them, another user’s untouched', async () => {
      const rowsOf = async (userId: string) =>
        (await opened().db.select().from(syncActivity).where(eq(syncActivity.userId, userId))).length;
      await playKeepsTheNewest(createSyncActivityRepository(opened().db), rowsOf, { ada: ADA, bob: BOB });
    });

    it('names the held items of the newest run that held any', async () => {
      await opened().db.delete(syncActivity);
      await playLastHeld(createSyncActivityRepository(opened().db), { ada: ADA, bob: BOB });
    });
  });
}
