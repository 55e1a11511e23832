import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { googleSpan, syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';
import { sameOrigin } from '#server/test/test-app.ts';

/**
 * Another sync writing into the chosen Google calendar (docs/product-rules.md §10 "Another sync"):
 * Todoist's own integration links each of its events to its task. Those events never become tasks
 * (each would be a duplicate of the task it came from), and the dashboard names the other sync once.
 */
for (const database of await testDatabases('another sync in the calendar')) {
  describe.skipIf(!database.enabled)(`another sync in the calendar (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    it('leaves Todoist’s own events alone, names Todoist once, and takes the user’s own events as before', async () => {
      const user = await syncingUser(app(), 'other-sync@example.com');
      const start = new Date(`${tomorrowAt(9).day}T13:00:00Z`);
      const insert = (summary: string, description?: string) =>
        user.google.events.insert({
          calendarId: user.calendarId,
          requestBody: { summary, ...googleSpan(start, 30), ...(description && { description }) },
        });
      await insert('Dentist', 'https://app.todoist.com/app/task/6X7rM8997g3RQmvh');
      await insert('Lunch with Sam');
      await user.run();

      const tasks = (await user.todoist.getTasks()).results.map((task) => task.content);
      expect(tasks).toEqual(['Lunch with Sam']);
      const activity = await user.send('GET', '/api/sync/activity');
      expect(activity.otherSync).toEqual({ tool: 'todoist', seenAt: expect.any(String) });

      // Read and dismissed: not named again, even when more of its events come.
      const dismissed = await app().server.inject({
        method: 'POST',
        url: '/api/sync/other-sync/dismiss',
        cookies: user.cookies,
        headers: sameOrigin,
        payload: {},
      });
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect(dismissed.json().otherSync).toBeNull();
      await insert('Call the bank', 'https://todoist.com/showTask?id=2995104339');
      await user.run();
      expect((await user.send('GET', '/api/sync/activity')).otherSync).toBeNull();
      expect((await user.todoist.getTasks()).results.map((task) => task.content)).toEqual(['Lunch with Sam']);
    });

    it('does not take our own events, which carry the task link when the setting asks for it', async () => {
      const user = await syncingUser(app(), 'other-sync-own@example.com');
      await user.send('PATCH', '/api/calendar/todoistlinkdescription', { todoistLinkDescription: true });
      await user.addTask('Write', tomorrowAt(9).day, 9, ['30min']);
      await user.run();
      await user.run();
      const [event] = await user.events();
      expect(event?.description).toContain('https://app.todoist.com/app/task/');
      expect((await user.send('GET', '/api/sync/activity')).otherSync).toBeNull();
    });
  });
}
