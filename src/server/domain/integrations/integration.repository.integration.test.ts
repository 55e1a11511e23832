import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '#server/db/client.ts';
import { applyMigrations } from '#server/db/migrations.ts';
import { testDatabases } from '#server/test/databases.ts';
import { seedUsers } from '#server/test/seed-users.ts';
import { createIntegrationRepository, type StoredConnection } from './integration.repository.ts';

const USER = '2b9f7c4e-1d3a-4e5f-8a6b-7c8d9e0f1a2b';
const NOW = new Date('2026-12-04T08:00:00Z');

const account = (accountId: string, provider: 'google' | 'microsoft' = 'google'): StoredConnection => ({
  userId: USER,
  kind: 'calendar',
  provider,
  accountId,
  email: `${accountId}@example.com`,
  accessTokenEncrypted: 'sealed',
  refreshTokenEncrypted: null,
  keyId: 'test',
  expiresAt: null,
});

for (const target of await testDatabases('calendar accounts changed at once')) {
  describe.skipIf(!target.enabled)(`calendar accounts changed at once, on ${target.name}`, () => {
    let database: Database;
    let cleanup = async () => {};
    beforeAll(async () => {
      const created = await target.create();
      cleanup = created.cleanup;
      database = await openDatabase(created.target, () => {});
      await applyMigrations(database);
      await seedUsers(database.db, [USER], new Date('2027-01-01T00:00:00Z'));
    });
    afterAll(async () => {
      await database?.close();
      await cleanup();
    });

    const positions = async () =>
      (await createIntegrationRepository(database.db).calendarAccounts(USER)).map(
        (row) => `${row.position} ${row.accountId}`,
      );

    it('connects two accounts at the same moment, each in a position of its own', async () => {
      const repository = createIntegrationRepository(database.db);
      await repository.connect(account('first'), NOW);
      const both = await Promise.allSettled([
        repository.connect(account('second'), NOW),
        repository.connect(account('third', 'microsoft'), NOW),
      ]);
      expect(both.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
      expect((await positions())[0]).toBe('0 first');
      expect((await positions()).map((line) => line.split(' ')[0])).toEqual(['0', '1', '2']);
    });

    it('makes two accounts the sync’s at the same moment: one after the other, no error, positions unique', async () => {
      const repository = createIntegrationRepository(database.db);
      const rows = await repository.calendarAccounts(USER);
      const [, second, third] = rows;
      if (!second || !third) throw new Error('three accounts');
      const swaps = await Promise.allSettled([
        repository.makeSyncAccount(USER, second.id, [], NOW),
        repository.makeSyncAccount(USER, third.id, [], NOW),
      ]);
      expect(swaps.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
      const after = await positions();
      expect(after.map((line) => line.split(' ')[0])).toEqual(['0', '1', '2']);
      // Whichever went second is the sync's now; the other two are added accounts.
      expect(['0 second', '0 third']).toContain(after[0]);
    });

    it('removes the sync’s account while another is made the sync’s: one account left the sync’s', async () => {
      const repository = createIntegrationRepository(database.db);
      const [sync, added] = await repository.calendarAccounts(USER);
      if (!sync || !added) throw new Error('accounts');
      const both = await Promise.allSettled([
        repository.removeAccount(USER, sync.id, NOW),
        repository.makeSyncAccount(USER, added.id, [], NOW),
      ]);
      expect(both.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
      const after = await positions();
      expect(after).toHaveLength(2);
      expect(after.filter((line) => line.startsWith('0 '))).toHaveLength(1);
    });
  });
}
