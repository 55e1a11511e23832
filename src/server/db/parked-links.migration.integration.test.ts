import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyncLinkRepository } from '#server/sync/store/sync-link.repository.ts';
import { migrationsUpTo } from '#server/test/migrations-before.ts';
import { createScratchDatabase, postgresTestsEnabled } from '#server/test/postgres.ts';
import { type Database, openDatabase } from './client.ts';
import { applyMigrations } from './migrations.ts';

/**
 * Migration 0025 (decision 028): the pairs there are stay the sync's (none parked), and a task may
 * from then on have a pair waiting in another account beside the sync's.
 */
const BEFORE = '0024_several_calendar_accounts';
const USER = '6f0e5c1a-3b7d-4c2e-9a41-0d5b8e7f2a25';
const NOW = new Date('2026-12-01T08:00:00Z');

const migrationsBefore = () => migrationsUpTo(BEFORE);

const targets = [
  { name: 'PGlite', enabled: true },
  { name: 'PostgreSQL', enabled: await postgresTestsEnabled('parked links migration') },
] as const;

for (const target of targets) {
  describe.skipIf(!target.enabled)(`migration to parked pairs on ${target.name}`, () => {
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
      // A user of the old schema with a Google account, a Microsoft 365 one added, and two pairs.
      await database.db.execute(sql`insert into users (id, first_name, display_name, email, google_id, valid_until, sync_active)
        values (${USER}, 'Ada', 'Ada Lovelace', 'ada@example.com', 'g-ada', ${new Date('2026-12-31T00:00:00Z')}, true)`);
      await database.db.execute(sql`insert into integrations
        (user_id, kind, provider, account_id, position, access_token_encrypted, key_id)
        values
        (${USER}, 'calendar', 'google', 'ada@example.com', 0, 'v1.dev.google-sealed', 'dev'),
        (${USER}, 'calendar', 'microsoft', 'ada-work', 1, 'v1.dev.ms-sealed', 'dev')`);
      await database.db.execute(sql`insert into sync_links
        (user_id, task_id, event_id, calendar_id, origin, title_hash, start_at, task_minutes, event_minutes, appearance_hash, task_meta)
        values
        (${USER}, 't1', 'g1', 'ada@example.com', 'task', 'h1', ${NOW}, 30, 30, 'a', '{"labels":[],"dueTimezone":null,"recurrence":null}'::jsonb),
        (${USER}, 't2', 'g2', 'ada@example.com', 'task', 'h2', ${NOW}, 30, 30, 'a', '{"labels":[],"dueTimezone":null,"recurrence":null}'::jsonb)`);
      await applyMigrations(database);
    });
    afterAll(async () => {
      await database?.close();
      await cleanup();
    });

    it('keeps every pair the sync’s, and lets a task’s pair wait in another account beside the sync’s', async () => {
      const links = createSyncLinkRepository(database.db);
      const pairs = await links.all(USER);
      expect(pairs.map((link) => [link.taskId, link.eventId]).sort()).toEqual([
        ['t1', 'g1'],
        ['t2', 'g2'],
      ]);
      const work = { provider: 'microsoft', accountId: 'ada-work' } as const;
      const first = pairs.find((link) => link.taskId === 't1');
      if (!first) throw new Error('no pair of t1');
      await links.park(USER, [first.id], work, NOW);
      const { id: _id, ...again } = first;
      await links.insertPending(USER, { ...again, eventId: 'g1-again' });
      expect((await links.all(USER)).map((link) => link.eventId).sort()).toEqual(['g1-again', 'g2']);
      expect((await links.parked(USER, work, 'ada@example.com')).map((link) => link.id)).toEqual([first.id]);
      // Two pairs of the sync's for one task are still refused.
      await expect(links.insertPending(USER, { ...again, eventId: 'g1-third' })).rejects.toThrow();
    });
  });
}
