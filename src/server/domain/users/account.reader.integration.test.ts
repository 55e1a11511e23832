import { describe, expect, it } from 'vitest';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { calendarSettings, timeboxSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpMigratedDatabase } from '#server/test/suite-setup.ts';
import { createAccountReader } from './account.reader.ts';
import { createUserRepository } from './user.repository.ts';
import { createUserService } from './user.service.ts';

const databases = await testDatabases('account reader');
const now = new Date('2026-11-01T10:00:00Z');

describe.each(databases)('the account view on $name', (testDb) => {
  const database = setUpMigratedDatabase(testDb);

  const signIn = async (subject: string) => {
    const users = createUserService({ users: createUserRepository(database().db), clock: () => now });
    const { user } = await users.signIn({
      provider: 'google',
      subject,
      email: `${subject}@example.com`,
      name: 'Ada Lovelace',
    });
    return user.id;
  };

  const connect = (
    userId: string,
    kind: 'todoist' | 'calendar',
    provider: 'todoist' | 'google' | 'microsoft',
  ) =>
    database()
      .db.insert(integrations)
      .values({
        userId,
        kind,
        provider,
        accessTokenEncrypted: 'sealed',
        keyId: 'k1',
        needsReconnect: kind === 'calendar',
      });

  it.skipIf(!testDb.enabled)(
    'shows a new user with nothing connected, every setting at its default',
    async () => {
      const userId = await signIn('fresh');
      const user = await createAccountReader(database().db).currentUser(userId);
      expect(user?.email).toBe('fresh@example.com');
      expect(user?.todoSettings).toMatchObject({
        connected: false,
        provider: null,
        timeboxSettings: [],
        labels: [],
      });
      expect(user?.todoSettings.onComplete).toBe('nothing');
      expect(user?.calendarSettings).toMatchObject({
        connected: false,
        provider: null,
        calendars: [],
        reminder: null,
      });
    },
  );

  it.skipIf(!testDb.enabled)(
    'shows the connected accounts, the timeboxes and both settings rows of that user only',
    async () => {
      const userId = await signIn('connected');
      const otherId = await signIn('other');
      const { db } = database();
      await connect(userId, 'todoist', 'todoist');
      await connect(userId, 'calendar', 'microsoft');
      await connect(otherId, 'calendar', 'google');
      await db.insert(timeboxSettings).values([
        { userId, label: 'focus', duration: 90, createdAt: now },
        { userId, label: 'Call', duration: 15, createdAt: now },
        { userId: otherId, label: 'theirs', duration: 30, createdAt: now },
      ]);
      await db
        .insert(todoSettings)
        .values({ userId, accountType: 'premium', onComplete: 'remove', timezone: 'Europe/Berlin' });
      await db.insert(calendarSettings).values({
        userId,
        calendarId: 'cal-1',
        calendars: [{ id: 'cal-1', name: 'Work', color: null, timeZone: null }],
        reminder: 10,
      });

      const user = await createAccountReader(database().db).currentUser(userId);
      expect(user?.todoSettings).toMatchObject({
        provider: 'Todoist',
        connected: true,
        needsReconnect: false,
        accountType: 'premium',
        onComplete: 'remove',
        timezone: { timezone: 'Europe/Berlin' },
      });
      expect(
        user?.todoSettings.timeboxSettings.map(({ label, duration }) => `${label} ${duration}`).sort(),
      ).toEqual(['Call 15', 'focus 90']);
      expect(user?.calendarSettings).toMatchObject({
        provider: 'Microsoft',
        connected: true,
        needsReconnect: true,
        calendarId: 'cal-1',
        reminder: 10,
      });
      // Stored before the provider's mark was kept: Microsoft's first calendar is its main one.
      expect(user?.calendarSettings.calendars).toEqual([
        { id: 'cal-1', name: 'Work', color: null, timeZone: null, primary: true, readOnly: false },
      ]);
    },
  );

  it.skipIf(!testDb.enabled)('has no view of a user who is gone', async () => {
    expect(
      await createAccountReader(database().db).currentUser('6f1c1d1e-0000-4000-8000-000000000000'),
    ).toBeUndefined();
  });
});
