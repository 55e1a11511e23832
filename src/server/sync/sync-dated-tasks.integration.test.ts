import { describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { dayAfter } from '#server/sync/calendar-target.port.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { microsoftSyncingUser, syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';
import { NO_CHANGE } from '#shared/api/sync.schema.ts';

/**
 * Tasks with a date but no time as all-day events (docs/product-rules.md §10), against the emulators: a
 * dated task gets an all-day event on its date once the user chooses so; moving the event moves the
 * task's date; a time given to the task makes the event a timed one; nothing is made twice.
 */

/** An event as these tests compare it: its title, and its date (all-day) or its start (timed). */
type Seen = { id: string; title: string; date: string | null; start: string | null };

const calendars = {
  google: async (app: App, email: string) => {
    const user = await syncingUser(app, email);
    return {
      ...user,
      seen: async (): Promise<Seen[]> =>
        (await user.events()).map((event) => ({
          id: event.id ?? '',
          title: event.summary ?? '',
          date: event.start?.date ?? null,
          start: event.start?.dateTime ? new Date(event.start.dateTime).toISOString() : null,
        })),
      moveToDay: (eventId: string, date: string) =>
        user.google.events.patch({
          calendarId: user.calendarId,
          eventId,
          requestBody: { start: { date }, end: { date: dayAfter(date) } },
        }),
    };
  },
  microsoft: async (app: App, email: string) => {
    const user = await microsoftSyncingUser(app, email);
    return {
      ...user,
      seen: async (): Promise<Seen[]> =>
        (await user.events()).map((event) => {
          const allDay = (event as { isAllDay?: boolean }).isAllDay === true;
          return {
            id: event.id,
            title: event.subject,
            date: allDay ? event.start.dateTime.slice(0, 10) : null,
            start: allDay ? null : new Date(`${event.start.dateTime.slice(0, 19)}Z`).toISOString(),
          };
        }),
      moveToDay: (eventId: string, date: string) =>
        user.graph('PATCH', `/me/events/${eventId}`, {
          isAllDay: true,
          start: { dateTime: `${date}T00:00:00`, timeZone: 'UTC' },
          end: { dateTime: `${dayAfter(date)}T00:00:00`, timeZone: 'UTC' },
        }),
    };
  },
};

for (const database of await testDatabases('dated tasks while syncing')) {
  describe.skipIf(!database.enabled)(`tasks with a date but no time (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    for (const [provider, syncingUserOn] of Object.entries(calendars)) {
      it(`gives a dated task an all-day event once chosen, and keeps both sides' dates in step (${provider})`, async () => {
        const user = await syncingUserOn(app(), `dated-${provider}@example.com`);
        const day = tomorrowAt(9).day;
        const task = await user.todoist.addTask({ content: 'Report', labels: ['30min'], dueDate: day });
        await user.run();
        expect(await user.seen()).toEqual([]);

        // Previewed first, as the settings screen does while sync is on.
        const preview = await user.send('GET', '/api/sync/preview/change?change=datedTasks&setting=allday');
        expect(preview).toEqual({
          ...NO_CHANGE,
          eventsCreated: 1,
          named: {
            ...NO_CHANGE.named,
            eventsCreated: [{ title: 'Report', when: { kind: 'date', date: day } }],
          },
        });
        const chosen = await user.send('PATCH', '/api/settings/datedtasks', { setting: 'allday' });
        expect(chosen.todoSettings.datedTasks).toBe('allday');
        await user.run();
        const [event, ...others] = await user.seen();
        expect(others).toEqual([]);
        expect(event).toMatchObject({ title: 'Report', date: day, start: null });

        // The user moves the all-day event a day on: the task takes the date and stays without a time.
        const later = dayAfter(day);
        await user.moveToDay(event?.id ?? '', later);
        await user.run();
        const moved = await user.todoist.getTask(task.id);
        expect(moved.due?.date).toBe(later);
        expect(moved.labels).toEqual(['30min']);
        expect(await user.seen()).toEqual([expect.objectContaining({ title: 'Report', date: later })]);

        // A time given to the task makes its event a timed one, 30 minutes long; no second event.
        const at = tomorrowAt(10);
        await user.todoist.updateTask(task.id, { dueString: `${later} at 10:00` });
        await user.run();
        await user.run();
        const timed = await user.seen();
        expect(timed).toHaveLength(1);
        expect(timed[0]).toMatchObject({ title: 'Report', date: null });
        expect(timed[0]?.start?.slice(0, 10)).toBe(later > at.day ? dayAfter(at.day) : at.day);
      });

      it(`takes the all-day events off when dated tasks go back to being left alone (${provider})`, async () => {
        const user = await syncingUserOn(app(), `dated-off-${provider}@example.com`);
        const day = tomorrowAt(9).day;
        await user.send('PATCH', '/api/settings/datedtasks', { setting: 'allday' });
        const task = await user.todoist.addTask({ content: 'Read', labels: ['1h'], dueDate: day });
        await user.run();
        expect(await user.seen()).toEqual([expect.objectContaining({ title: 'Read', date: day })]);

        await user.send('PATCH', '/api/settings/datedtasks', { setting: 'skip' });
        await user.run();
        expect(await user.seen()).toEqual([]);
        const kept = await user.todoist.getTask(task.id);
        expect(kept).toMatchObject({
          content: 'Read',
          labels: ['1h'],
          due: expect.objectContaining({ date: day }),
        });
      });
    }
  });
}
