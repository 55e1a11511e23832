import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';

/**
 * Settings changed while sync is on (docs/product-rules.md §10 "Changes around the sync"): what is
 * already on both sides is judged by the new settings in the next run, not only what changes later.
 */
for (const database of await testDatabases('settings changes while syncing')) {
  describe.skipIf(!database.enabled)(`settings changed while syncing (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });
    const summaries = async (user: Awaited<ReturnType<typeof syncingUser>>) =>
      (await user.events()).map((event) => event.summary).sort();

    it('gives events to the tasks already carrying a timebox label added later, and takes them off again', async () => {
      const user = await syncingUser(app(), 'settings-timebox@example.com');
      const due = tomorrowAt(9);
      await user.todoist.addLabel({ name: 'Focus' });
      await user.addTask('Deep work', due.day, 9, ['Focus']);
      await user.addTask('Write', due.day, 13, ['30min']);
      await user.run();
      expect(await summaries(user)).toEqual(['Write']);

      await user.send('POST', '/api/timeboxsettings', { label: 'Focus', duration: 90 });
      await user.run();
      expect(await summaries(user)).toEqual(['Deep work', 'Write']);
      const deep = (await user.events()).find((event) => event.summary === 'Deep work');
      const length = Date.parse(deep?.end?.dateTime ?? '') - Date.parse(deep?.start?.dateTime ?? '');
      expect(length).toBe(90 * 60_000);

      // Another length: the event follows.
      await user.send('PATCH', '/api/timeboxsettings', { label: 'Focus', newLabel: 'Focus', duration: 45 });
      await user.run();
      const resized = (await user.events()).find((event) => event.summary === 'Deep work');
      expect(Date.parse(resized?.end?.dateTime ?? '') - Date.parse(resized?.start?.dateTime ?? '')).toBe(
        45 * 60_000,
      );

      const removed = await app().server.inject({
        method: 'DELETE',
        url: '/api/timeboxsettings/Focus',
        cookies: user.cookies,
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(removed.statusCode).toBe(200);
      await user.run();
      expect(await summaries(user)).toEqual(['Write']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('previews what a change would do before it is saved, and changes nothing', async () => {
      const user = await syncingUser(app(), 'settings-preview@example.com');
      const due = tomorrowAt(9);
      for (const hour of [9, 10, 11]) await user.addTask(`Task ${hour}`, due.day, hour, ['30min']);
      await user.addTask('Plan', due.day, 14, ['1h']);
      await user.run();
      const preview = (query: string) => user.send('GET', `/api/sync/preview/change?${query}`);

      expect(await preview('change=removeTimebox&label=30min')).toEqual({
        eventsCreated: 0,
        eventsRemoved: 3,
        eventsMoved: 0,
        tasksCreated: 0,
        tasksDeleted: 0,
        tasksUnscheduled: 0,
        tasksKept: 3,
        heldByBrake: false,
      });
      const current = await user.send('GET', '/api/current_user');
      const work = current.calendarSettings.calendars.find((entry: { name: string }) => entry.name === 'Work');
      expect(await preview(`change=calendar&calendarId=${encodeURIComponent(work.id)}`)).toMatchObject({
        eventsMoved: 4,
        eventsRemoved: 0,
      });
      // A preview writes nothing.
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect(await summaries(user)).toEqual(['Plan', 'Task 10', 'Task 11', 'Task 9']);

      const incomplete = await app().server.inject({
        method: 'GET',
        url: '/api/sync/preview/change?change=calendar',
        cookies: user.cookies,
      });
      expect(incomplete.statusCode).toBe(400);
    });

    it('turns events already of a newly chosen colour into tasks', async () => {
      const user = await syncingUser(app(), 'settings-colour@example.com', { color: '5' });
      const start = tomorrowAt(16).instant;
      await user.google.events.insert({
        calendarId: user.calendarId,
        requestBody: {
          summary: 'Gym',
          colorId: '7',
          start: { dateTime: start.toISOString() },
          end: { dateTime: new Date(start.getTime() + 60 * 60_000).toISOString() },
        },
      });
      await user.run();
      const before = await user.todoist.getTasks();
      expect(before.results.map((task) => task.content)).not.toContain('Gym');

      await user.send('PATCH', '/api/calendar/color', { color: '7' });
      await user.run();
      const after = await user.todoist.getTasks();
      expect(after.results.map((task) => task.content)).toContain('Gym');
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });
  });
}
