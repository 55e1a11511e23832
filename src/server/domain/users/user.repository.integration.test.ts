import { beforeAll, describe, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { seedUsers } from '#server/test/seed-users.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { playNoticeLinkVersion } from './notice-link-version.fixture.ts';
import { createUserRepository } from './user.repository.ts';

const ADA = '00000000-0000-4000-8000-0000000000ad';
const BOB = '00000000-0000-4000-8000-0000000000bb';

for (const database of await testDatabases('user repository')) {
  describe.skipIf(!database.enabled)(`the user repository (${database.name})`, () => {
    const opened = setUpMigratedDatabase(database);
    beforeAll(async () => {
      await seedUsers(opened().db, [ADA, BOB], new Date(Date.UTC(2026, 11, 1)));
    });

    it('moves the notices-off link version on only when the mails are switched on again', async () => {
      await playNoticeLinkVersion(createUserRepository(opened().db), { ada: ADA, bob: BOB });
    });
  });
}
