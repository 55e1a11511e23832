import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegrationRepository } from '#server/domain/integrations/integration.repository.ts';
import { createAccountReader } from '#server/domain/users/account.reader.ts';
import { createSyncSettingsReader } from '#server/sync/store/sync-settings.repository.ts';
import { migrationsUpTo } from '#server/test/migrations-before.ts';
import { createScratchDatabase, postgresTestsEnabled } from '#server/test/postgres.ts';
import { type Database, openDatabase } from './client.ts';
import { applyMigrations } from './migrations.ts';

/**
 * Migration 0024 (decision 028): a user's one calendar account becomes their first account, the sync's,
 * in place: the same row, tokens and connection time, so nothing is connected, made or synced again.
 */
const BEFORE = '0023_link_refused_writes';
const USER = '6f0e5c1a-3b7d-4c2e-9a41-0d5b8e7f2a10';
const CONNECTED = new Date('2026-01-05T08:00:00Z');

const migrationsBefore = () => migrationsUpTo(BEFORE);

const targets = [
  { name: 'PGlite', enabled: true },
  { name: 'PostgreSQL', enabled: await postgresTestsEnabled('several calendar accounts migration') },
] as const;

for (const target of targets) {
  describe.skipIf(!target.enabled)(`migration to several calendar accounts on ${target.name}`, () => {
    let database: Database;
    let cleanup = async () => {};

    beforeAll(async () => {
      const before = await migrationsBefore();
      if (target.name === 'PGlite') {
        database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, () => {});
        await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: before });
      } else {
        const scratch = await createScratchDatabase();
        database = await openDatabase({ kind: 'postgres', url: scratch.url }, () => {});
        await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder: before });
        cleanup = scratch.drop;
      }
      await rm(before, { recursive: true, force: true });
      // A user of the old schema: Todoist and one Google Calendar account, its calendar chosen.
      await database.db.execute(sql`insert into users (id, first_name, display_name, email, google_id, valid_until, sync_active)
        values (${USER}, 'Ada', 'Ada Lovelace', 'ada@example.com', 'g-ada', ${new Date('2026-12-31T00:00:00Z')}, true)`);
      await database.db.execute(sql`insert into integrations
        (user_id, kind, provider, account_id, access_token_encrypted, refresh_token_encrypted, key_id, connected_at, updated_at)
        values
        (${USER}, 'todoist', 'todoist', 'todoist-7', 'v1.dev.todoist-sealed', null, 'dev', ${CONNECTED}, ${CONNECTED}),
        (${USER}, 'calendar', 'google', 'ada@example.com', 'v1.dev.google-sealed', 'v1.dev.refresh-sealed', 'dev', ${CONNECTED}, ${CONNECTED})`);
      await database.db.execute(sql`insert into calendar_settings (user_id, calendar_id, calendars)
        values (${USER}, 'timeboxes-1', ${JSON.stringify([
          { id: 'ada@example.com', name: 'Ada', color: null, timeZone: 'UTC', primary: true },
          { id: 'timeboxes-1', name: 'Timeboxes', color: null, timeZone: 'UTC', primary: false },
        ])}::jsonb)`);
      await applyMigrations(database);
    });
    afterAll(async () => {
      await database?.close();
      await cleanup();
    });

    it('keeps the one account as the first, the sync’s: same row, tokens and connection time, its address filled in', async () => {
      const integrations = createIntegrationRepository(database.db);
      const calendar = await integrations.find(USER, 'calendar');
      expect(calendar).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        position: 0,
        provider: 'google',
        accountId: 'ada@example.com',
        email: 'ada@example.com',
        calendars: null,
        accessTokenEncrypted: 'v1.dev.google-sealed',
        refreshTokenEncrypted: 'v1.dev.refresh-sealed',
        connectedAt: CONNECTED,
        needsReconnect: false,
      });
      expect(await integrations.find(USER, 'todoist')).toMatchObject({ position: 0, email: null });
      expect(await integrations.calendarAccounts(USER)).toHaveLength(1);
    });

    it('lists it as the first account, and the sync still runs with it and its chosen calendar', async () => {
      const user = await createAccountReader(database.db).currentUser(USER);
      expect(user?.calendarSettings).toMatchObject({
        provider: 'Google Calendar',
        connected: true,
        calendarId: 'timeboxes-1',
        accounts: [
          {
            provider: 'google',
            email: 'ada@example.com',
            sync: true,
            calendars: [
              { id: 'ada@example.com', primary: true, canWrite: true },
              { id: 'timeboxes-1', primary: false, canWrite: true },
            ],
          },
        ],
      });
      const context = await createSyncSettingsReader(database.db).load(
        USER,
        new Date('2026-06-01T00:00:00Z'),
      );
      expect(context).toMatchObject({
        runnable: true,
        calendarAccountId: 'ada@example.com',
        settings: { calendarProvider: 'google', calendarId: 'timeboxes-1' },
      });
    });

    it('adds a second account beside it, and the same account again makes no second entry', async () => {
      const integrations = createIntegrationRepository(database.db);
      const now = new Date('2026-06-01T10:00:00Z');
      const second = {
        userId: USER,
        kind: 'calendar' as const,
        provider: 'microsoft' as const,
        accountId: 'ms-1',
        email: 'ada@work.example',
        accessTokenEncrypted: 'v1.dev.ms',
        refreshTokenEncrypted: null,
        keyId: 'dev',
        expiresAt: null,
      };
      expect((await integrations.connect(second, now)).added).toBe(true);
      expect(
        (await integrations.connect({ ...second, accessTokenEncrypted: 'v1.dev.ms-2' }, now)).row,
      ).toMatchObject({
        position: 1,
        accessTokenEncrypted: 'v1.dev.ms-2',
      });
      const listed = await integrations.calendarAccounts(USER);
      expect(listed.map((row) => [row.provider, row.position])).toEqual([
        ['google', 0],
        ['microsoft', 1],
      ]);
      expect((await integrations.find(USER, 'calendar'))?.connectedAt).toEqual(CONNECTED);
    });
  });
}
