import { describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  emulatorControl,
  microsoftSyncingUser,
  syncingUser,
  tomorrowAt,
} from '#server/test/sync-fixtures.ts';

/**
 * The user moves a synced event to another calendar of the same account, in Google Calendar or Outlook,
 * and maybe back (docs/product-rules.md §10 "Moved to another calendar"; docs/provider-facts.md §11).
 * Out, it is the user's removal of the event through the normal rules and the safety brake; back in,
 * never a duplicate task or a second event.
 */
const calendars = {
  google: async (app: App, email: string) => {
    const user = await syncingUser(app, email);
    const list = (await user.google.calendarList.list()).data.items ?? [];
    const other =
      list.find((entry) => entry.id !== user.calendarId && entry.accessRole === 'owner')?.id ?? '';
    const origin = user.origins.google;
    const move = async (eventId: string, from: string, to: string) =>
      (
        await emulatorControl(origin, `calendars/${encodeURIComponent(from)}/events/${eventId}/move`, {
          destination: to,
        })
      ).id as string;
    return {
      ...user,
      eventIds: async () => (await user.events()).map((event) => event.id ?? ''),
      /** Moves the event out of the chosen calendar; its id there (Google keeps it). */
      moveOut: (eventId: string) => move(eventId, user.calendarId, other),
      moveBack: (eventId: string) => move(eventId, other, user.calendarId),
    };
  },
  microsoft: async (app: App, email: string) => {
    const user = await microsoftSyncingUser(app, email);
    const list: { id: string; canEdit: boolean }[] = (await user.graph('GET', '/me/calendars')).value;
    const other = list.find((entry) => entry.id !== user.calendarId && entry.canEdit)?.id ?? '';
    const origin = app.emulators?.microsoft.origin ?? '';
    const move = async (eventId: string, to: string) =>
      (await emulatorControl(origin, `events/${eventId}/move`, { destinationId: to })).id as string;
    return {
      ...user,
      eventIds: async () => (await user.events()).map((event) => event.id),
      /** Moves the event out of the chosen calendar; its new id there (Outlook gives one). */
      moveOut: (eventId: string) => move(eventId, other),
      moveBack: (eventId: string) => move(eventId, user.calendarId),
    };
  },
};
type MovingUser = Awaited<ReturnType<(typeof calendars)[keyof typeof calendars]>>;

for (const database of await testDatabases('events moved to another calendar')) {
  describe.skipIf(!database.enabled)(`events moved to another calendar (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    const tasks = async (user: MovingUser) =>
      (await user.todoist.getTasks()).results.map((task) => ({
        content: task.content,
        labels: task.labels,
        due: task.due?.date ?? null,
      }));
    const settled = async (user: MovingUser) =>
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });

    for (const [provider, syncingUserOn] of Object.entries(calendars)) {
      it(`deletes the task an event made when it moves out, and makes one task again when it moves back (${provider})`, async () => {
        const user = await syncingUserOn(app(), `moved-event-first-${provider}@example.com`);
        const start = tomorrowAt(16);
        await user.addEvent('Physio', start.instant, 60);
        await user.run();
        expect((await tasks(user)).map((task) => task.content)).toEqual(['Physio']);
        const [eventId] = await user.eventIds();

        const outId = await user.moveOut(eventId ?? '');
        expect(await user.run()).toMatchObject({ status: 'synced' });
        expect(await tasks(user)).toEqual([]);
        expect(await user.eventIds()).toEqual([]);

        await user.moveBack(outId);
        await user.run();
        expect(await tasks(user)).toEqual([
          { content: 'Physio', labels: ['1h'], due: expect.stringContaining('T16:00') },
        ]);
        expect(await user.eventTitles()).toEqual(['Physio']);
        await settled(user);
      });

      it(`keeps a task that existed first without its timebox when its event moves out, and makes no second event when it moves back (${provider})`, async () => {
        const user = await syncingUserOn(app(), `moved-task-first-${provider}@example.com`);
        const due = tomorrowAt(9);
        const task = await user.addTask('Budget', due.day, 9, ['30min']);
        await user.run();
        const [eventId] = await user.eventIds();

        const outId = await user.moveOut(eventId ?? '');
        await user.run();
        const kept = await user.todoist.getTask(task.id);
        expect(kept.labels).toEqual([]);
        expect(kept.due?.date).toBe(due.day);
        expect(await user.eventIds()).toEqual([]);
        await settled(user);

        await user.moveBack(outId);
        await user.run();
        // The event is back, the user's now (our tag, no link): not a task, not removed, not made twice.
        expect(await tasks(user)).toEqual([{ content: 'Budget', labels: [], due: due.day }]);
        expect(await user.eventTitles()).toEqual(['Budget']);
        await settled(user);
      });

      it(`goes on with the pair when the event moves out and back between two runs (${provider})`, async () => {
        const user = await syncingUserOn(app(), `moved-out-and-back-${provider}@example.com`);
        const due = tomorrowAt(10);
        const task = await user.addTask('Review', due.day, 10, ['30min']);
        await user.addEvent('Dentist', tomorrowAt(15).instant, 60);
        await user.run();
        expect(await user.eventTitles()).toEqual(['Dentist', 'Review']);
        const ids = await user.eventIds();
        const dentistTask = (await user.todoist.getTasks()).results.find(
          (entry) => entry.content === 'Dentist',
        );

        for (const id of ids) await user.moveBack(await user.moveOut(id));
        await user.run();
        // The user's own event carries no tag: Google's same id keeps its task; Outlook's new id is the
        // old event deleted and a new one made, so its task is made anew (docs/product-rules.md §10).
        const dentistNow = (await user.todoist.getTasks()).results.find(
          (entry) => entry.content === 'Dentist',
        );
        expect(dentistNow?.id === dentistTask?.id).toBe(provider === 'google');
        const kept = await user.todoist.getTask(task.id);
        expect(kept.labels).toEqual(['30min']);
        expect(kept.due?.date).toContain('T10:00');
        expect((await tasks(user)).map((entry) => entry.content).sort()).toEqual(['Dentist', 'Review']);
        expect(await user.eventTitles()).toEqual(['Dentist', 'Review']);
        await settled(user);

        // Still a pair: the task's change reaches the event that came back.
        await user.todoist.updateTask(task.id, { content: 'Review notes' });
        await user.run();
        expect(await user.eventTitles()).toEqual(['Dentist', 'Review notes']);
      });
    }
  });
}
