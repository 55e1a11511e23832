import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { emulatorControl, SYNCING_USERS, type SyncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';

/**
 * The chosen calendar becomes one the account can only read (its owner shared it read only): the sync
 * stops with the "calendar missing" problem; it goes on once the access comes back, or once the user
 * chooses another calendar, where every task gets its event once while the events the old calendar
 * will not give up stay there, as the dashboard says (docs/product-rules.md §10 "Changes around the
 * sync", docs/provider-facts.md §9).
 */
for (const database of await testDatabases('read-only calendars')) {
  describe.skipIf(!database.enabled)(`a calendar the account can only read (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    for (const kind of ['google', 'microsoft'] as const) {
      /** The calendar's owner gives the account write access, or takes it away. */
      const access = async (calendarId: string, writable: boolean) => {
        const emulators = app().emulators;
        if (!emulators) throw new Error('the test app runs in sandbox mode');
        const origin = kind === 'google' ? emulators.googleCalendar.origin : emulators.microsoft.origin;
        await emulatorControl(
          origin,
          `calendars/${encodeURIComponent(calendarId)}/access`,
          kind === 'google' ? { accessRole: writable ? 'owner' : 'reader' } : { canEdit: writable },
        );
      };

      /** The titles of the events in another calendar of the account, sorted. */
      async function titlesIn(
        user: SyncingUser | Awaited<ReturnType<typeof SYNCING_USERS.microsoft>>,
        id: string,
      ) {
        if ('google' in user) {
          const items = (await user.google.events.list({ calendarId: id })).data.items ?? [];
          return items.map((event) => event.summary ?? '').sort();
        }
        const events = (await user.graph('GET', `/me/calendars/${encodeURIComponent(id)}/events`)).value;
        return events.map((event: { subject: string }) => event.subject).sort();
      }

      async function readOnlyNow(email: string) {
        const user = await SYNCING_USERS[kind](app(), email);
        await user.addTask('Before', tomorrowAt(9).day, 9, ['30min']);
        const done = await user.addTask('Done', tomorrowAt(12).day, 12, ['30min']);
        await user.run();
        await user.todoist.closeTask(done.id);
        await user.run();
        expect(await user.eventTitles()).toEqual(['Before', 'Done']);
        await access(user.calendarId, false);
        await user.addTask('After', tomorrowAt(10).day, 10, ['30min']);
        expect(await user.run()).toEqual({ status: 'blocked', problem: 'calendar-missing' });
        const { problems } = await app().sync.service.activity(user.userId);
        expect(problems.map((problem) => problem.code)).toEqual(['calendar-missing']);
        return user;
      }

      it(`${kind}: goes on once the access comes back, each task with one event`, async () => {
        const user = await readOnlyNow(`read-only-back-${kind}@example.com`);
        await access(user.calendarId, true);
        expect(await user.run()).toMatchObject({ status: 'synced' });
        expect(await user.eventTitles()).toEqual(['After', 'Before', 'Done']);
        expect((await app().sync.service.activity(user.userId)).problems).toEqual([]);
        expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      });

      it(`${kind}: another calendar chosen gets every task's event once; the old one keeps its event`, async () => {
        const user = await readOnlyNow(`read-only-switch-${kind}@example.com`);
        const current = await user.send('GET', '/api/current_user');
        const other = current.calendarSettings.calendars.find(
          (entry: { id: string; name: string }) => entry.name === 'Timeboxer',
        );
        await user.send('PATCH', '/api/calendar/id', { calendarId: other.id });
        expect(await user.run()).toMatchObject({ status: 'synced' });

        // The done task's pair ends with its event there, as when an account is no longer connected.
        expect(await titlesIn(user, other.id)).toEqual(['After', 'Before']);
        // The events the old calendar would not give up stay there, and the dashboard says so.
        expect(await user.eventTitles()).toEqual(['Before', 'Done']);
        const activity = await app().sync.service.activity(user.userId);
        expect(activity.problems).toEqual([]);
        expect(activity.leftBehind).toMatchObject({
          calendarId: user.calendarId,
          events: 2,
          why: 'read-only',
        });
        expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });

        // The pair goes on in the chosen calendar.
        const before = (await user.todoist.getTasks()).results.find((task) => task.content === 'Before');
        await user.todoist.updateTask(before?.id ?? '', { content: 'Before lunch' });
        await user.run();
        expect(await titlesIn(user, other.id)).toEqual(['After', 'Before lunch']);
        expect(await user.eventTitles()).toEqual(['Before', 'Done']);
      });
    }
  });
}
