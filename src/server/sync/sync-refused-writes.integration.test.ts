import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncLinks } from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { syncingUser as createSyncingUser, emulatorControl, tomorrowAt } from '#server/test/sync-fixtures.ts';
import { createSyncLinkRepository } from './store/sync-link.repository.ts';

/**
 * A create Google refuses for good (403 forbiddenForNonOrganizer, docs/provider-facts.md §10) is kept on
 * its pair and tried again on the back-off of plan/refusal-backoff.ts, by the app's clock, which the test
 * moves; lifted, the next try makes the one event.
 */
for (const database of await testDatabases('writes refused for good')) {
  describe.skipIf(!database.enabled)(`writes a provider refuses for good (${database.name})`, () => {
    let offset = 0;
    const MINUTE = 60_000;
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web', clock: () => new Date(Date.now() + offset) },
    });
    let google: string;
    beforeAll(() => {
      const emulators = app().emulators;
      if (!emulators) throw new Error('the test app runs in sandbox mode');
      google = emulators.googleCalendar.origin;
    });
    const creates = async () => {
      const { requests } = await emulatorControl(google, 'state');
      return Object.entries(requests as Record<string, number>)
        .filter(([route]) => /^POST .*\/events$/.test(route))
        .reduce((sum, [, count]) => sum + count, 0);
    };

    it('tries a refused create only on the back-off, and makes one event once the refusal is lifted', async () => {
      const user = await createSyncingUser(app(), 'refused-create@example.com');
      const task = await user.addTask('Write the report', tomorrowAt(9).day, 9, ['30min']);
      const { id: rule } = await emulatorControl(google, 'faults', {
        kind: 'status',
        status: 403,
        reason: 'forbiddenForNonOrganizer',
        method: 'POST',
        path: '^/calendar/v3/calendars/[^/]+/events$',
      });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const linkOf = async () =>
        (await app().database.db.select().from(syncLinks).where(eq(syncLinks.userId, user.userId)))[0];
      expect(await linkOf()).toMatchObject({
        taskId: task.id,
        eventId: null,
        refusedWrite: 'event-create',
        refusedStatus: 403,
        refusedReason: 'forbiddenForNonOrganizer',
        refusedCount: 1,
      });
      // The dashboard's read of it: the pair in one statement, with the count of all.
      const refused = await createSyncLinkRepository(app().database.db).refused(user.userId, 50);
      expect(refused).toMatchObject({
        total: 1,
        pairs: [{ taskId: task.id, eventId: null, refusedWrite: 'event-create', refusedCount: 1 }],
      });
      const first = await creates();

      // Runs within the 15 minutes (a full read among them) do not ask Google again.
      offset = 10 * MINUTE;
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect(await creates()).toBe(first);

      // Due: tried once more, refused again; the next try is an hour later.
      offset = 16 * MINUTE;
      await user.run();
      expect(await creates()).toBe(first + 1);
      expect(await linkOf()).toMatchObject({ refusedCount: 2 });
      offset = 50 * MINUTE;
      await user.run();
      expect(await creates()).toBe(first + 1);

      // Lifted: an hour after the second refusal the create goes through, once.
      const response = await fetch(`${google}/_emulator/faults/${rule}`, { method: 'DELETE' });
      expect(response.ok).toBe(true);
      offset = 77 * MINUTE;
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect((await user.events()).map((event) => event.summary)).toEqual(['Write the report']);
      expect(await linkOf()).toMatchObject({ refusedWrite: null, refusedCount: 0 });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect((await user.events()).length).toBe(1);
    });
  });
}
