import { describe, expect, it } from 'vitest';
import { createSettingsRepository } from '#server/domain/settings/settings.repository.ts';
import { createUserRepository } from '#server/domain/users/user.repository.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { isUniqueViolation } from './unique-violation.ts';

const databases = await testDatabases('unique violations');

describe.each(databases)('isUniqueViolation on $name', (testDb) => {
  const database = setUpMigratedDatabase(testDb);

  it.skipIf(!testDb.enabled)(
    'recognises a duplicate key through the driver and Drizzle, and nothing else',
    async () => {
      const user = await createUserRepository(database().db).insertOrGet('google', {
        firstName: 'U',
        displayName: 'U',
        email: 'u@example.com',
        googleId: 'unique-test',
        validUntil: new Date(),
      });
      const settings = createSettingsRepository(database().db);
      const now = new Date('2026-03-01T09:00:00Z');
      await settings.addTimebox(user.id, { label: 'Focus', labelId: null }, 25, now);
      const duplicate = await settings
        .addTimebox(user.id, { label: 'FOCUS', labelId: null }, 30, now)
        .catch((error: unknown) => error);
      expect(isUniqueViolation(duplicate)).toBe(true);

      const missingUser = await settings
        .addTimebox('00000000-0000-4000-8000-000000000000', { label: 'Focus', labelId: null }, 25, now)
        .catch((error: unknown) => error);
      expect(missingUser).toBeInstanceOf(Error);
      expect(isUniqueViolation(missingUser)).toBe(false);
    },
  );
});
