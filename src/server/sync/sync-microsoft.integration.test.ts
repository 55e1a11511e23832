import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { emulatorControl, graphSpan, microsoftSyncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';

/** Graph answers in UTC without a zone suffix (`Prefer: outlook.timezone="UTC"`). */
const instantOf = (time: { dateTime: string }) => new Date(`${time.dateTime.slice(0, 19)}Z`);

for (const database of await testDatabases('sync with Microsoft 365')) {
  describe.skipIf(!database.enabled)(`sync between Todoist and Microsoft 365 (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    it('creates the event once, follows the task, and moves the task when the event moves', async () => {
      const user = await microsoftSyncingUser(app(), 'ms-task@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Budget', due.day, 9, ['30min']);
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const [event, ...others] = await user.events();
      expect(others).toEqual([]);
      expect(event?.subject).toBe('Budget');
      expect(instantOf(event?.start ?? { dateTime: '' }).toISOString()).toBe(due.instant.toISOString());
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });

      await user.todoist.updateTask(task.id, { content: 'Budget review', labels: ['1h'] });
      await user.run();
      const [updated] = await user.events();
      expect(updated?.subject).toBe('Budget review');
      expect(instantOf(updated?.end ?? { dateTime: '' }).getTime() - due.instant.getTime()).toBe(60 * 60_000);

      const start = tomorrowAt(13).instant;
      await user.moveEvent(updated?.id, start, 60);
      await user.run();
      expect((await user.todoist.getTask(task.id)).due?.date).toContain('T13:00');
      expect((await user.events()).length).toBe(1);
    });

    it('turns a new event into a task, and deletes that task with the event', async () => {
      const user = await microsoftSyncingUser(app(), 'ms-event@example.com');
      const start = tomorrowAt(16).instant;
      const created = await user.graph('POST', `${user.calendarPath}/events`, {
        subject: 'Physio',
        ...graphSpan(start, 60),
      });
      await user.run();
      const tasks = (await user.todoist.getTasks()).results;
      expect(tasks.map((entry) => [entry.content, entry.labels])).toEqual([['Physio', ['1h']]]);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });

      await user.graph('DELETE', `/me/events/${created.id}`);
      await user.run();
      expect((await user.todoist.getTasks()).results).toEqual([]);
    });

    it('removes the event of a completed task with "remove"', async () => {
      const user = await microsoftSyncingUser(app(), 'ms-complete@example.com', { onComplete: 'remove' });
      const task = await user.addTask('Laundry', tomorrowAt(9).day, 9, ['30min']);
      await user.run();
      expect((await user.events()).length).toBe(1);
      await user.todoist.closeTask(task.id);
      await user.run();
      expect(await user.events()).toEqual([]);
    });

    it('pauses with "the chosen calendar no longer exists" once the account can only read it', async () => {
      const user = await microsoftSyncingUser(app(), 'ms-read-only-now@example.com');
      await user.addTask('Before', tomorrowAt(9).day, 9, ['30min']);
      await user.run();
      expect(await user.eventTitles()).toEqual(['Before']);
      // The calendar is shared to read only now (canEdit false): Graph refuses our writes with 403.
      const origin = app().emulators?.microsoft.origin ?? '';
      await emulatorControl(origin, `calendars/${encodeURIComponent(user.calendarId)}/access`, {
        canEdit: false,
      });
      await user.addTask('After', tomorrowAt(10).day, 10, ['30min']);
      expect(await user.run()).toEqual({ status: 'blocked', problem: 'calendar-missing' });
      const activity = await app().sync.service.activity(user.userId);
      expect(activity.problems.map((problem) => problem.code)).toEqual(['calendar-missing']);
      expect(await user.eventTitles()).toEqual(['Before']);
    });
  });
}
