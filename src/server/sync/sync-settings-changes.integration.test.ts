import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { emulatorControl, syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';
import { NO_CHANGE } from '#shared/api/sync.schema.ts';
import { SYNC_ALL_TASKS } from '#shared/settings/constants.ts';

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

      const removed = await preview('change=removeTimebox&label=30min');
      expect(removed).toEqual({
        ...NO_CHANGE,
        eventsRemoved: 3,
        tasksKept: 3,
        named: { ...NO_CHANGE.named, eventsRemoved: expect.any(Array) },
      });
      // The events to go, named by their titles as the calendar has them, for the dialog only.
      expect(removed.named.eventsRemoved.map((name: { title: string }) => name.title).sort()).toEqual([
        'Task 10',
        'Task 11',
        'Task 9',
      ]);
      const current = await user.send('GET', '/api/current_user');
      const work = current.calendarSettings.calendars.find(
        (entry: { name: string }) => entry.name === 'Work',
      );
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

    it('switches to Todoist task durations and back, judging every task by the mode in use', async () => {
      const user = await syncingUser(app(), 'settings-durations@example.com');
      await emulatorControl(
        user.origins.todoist,
        `users/${encodeURIComponent('settings-durations@example.com')}`,
        {
          premiumStatus: 'current_personal_plan',
        },
      );
      await user.send('GET', '/api/todoist/updateuserprofile');
      const due = tomorrowAt(9);
      await user.addTask('Labelled', due.day, 9, ['30min']);
      await user.todoist.addTask({
        content: 'With a duration',
        dueString: `${due.day} at 13:00`,
        duration: 45,
        durationUnit: 'minute',
      });
      await user.run();
      expect(await summaries(user)).toEqual(['Labelled']);

      await user.send('PATCH', '/api/taskdurationsettings/label', { label: SYNC_ALL_TASKS });
      await user.send('PATCH', '/api/taskdurationsettings/active', { active: true });
      await user.run();
      // The labelled task has no duration: out of scope in this mode; the task with one gets its event.
      expect(await summaries(user)).toEqual(['With a duration']);

      await user.send('PATCH', '/api/taskdurationsettings/active', { active: false });
      await user.run();
      expect(await summaries(user)).toEqual(['Labelled']);
    });

    it('syncs what changed while sync was off once it is on again, with no duplicate', async () => {
      const user = await syncingUser(app(), 'settings-off-on@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Write', due.day, 9, ['30min']);
      await user.run();
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: false });
      await user.todoist.updateTask(task.id, { content: 'Write the report' });
      await user.addTask('Read', due.day, 11, ['1h']);
      expect(await user.run()).toMatchObject({ status: 'skipped' });
      expect(await summaries(user)).toEqual(['Write']);

      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      await user.run();
      expect(await summaries(user)).toEqual(['Read', 'Write the report']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('applies a new completion setting to tasks completed from then on, and leaves done pairs as they are', async () => {
      const user = await syncingUser(app(), 'settings-completion@example.com');
      const due = tomorrowAt(9);
      const first = await user.addTask('First', due.day, 9, ['30min']);
      const second = await user.addTask('Second', due.day, 11, ['30min']);
      await user.run();
      await user.todoist.closeTask(first.id);
      await user.run();
      expect(await summaries(user)).toEqual(['First', 'Second']);

      await user.send('PATCH', '/api/settings/oncomplete', { setting: 'remove' });
      await user.todoist.closeTask(second.id);
      await user.run();
      // The task done before the change keeps its event; the one done after loses it.
      expect(await summaries(user)).toEqual(['First']);
    });
  });
}
