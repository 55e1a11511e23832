import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { todoSettings } from '#server/db/schema/settings.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  emulatorControl,
  googleSpan,
  SYNCING_USERS,
  type SyncingUser,
  syncingUser,
  tomorrowAt,
} from '#server/test/sync-fixtures.ts';

/**
 * Changes the user makes to their Todoist labels while sync is on (docs/product-rules.md §10): the
 * settings follow a label by its id, so a rename keeps every event; a deleted label turns its setting
 * into the "missing in Todoist" row.
 */

/** A 30-minute meeting the user puts in Google Calendar tomorrow at 07:00 UTC (it becomes a task). */
async function addStandup(user: SyncingUser) {
  const start = new Date(`${tomorrowAt(7).day}T07:00:00Z`);
  const { data } = await user.google.events.insert({
    calendarId: user.calendarId,
    requestBody: { summary: 'Standup', ...googleSpan(start, 30) },
  });
  return data;
}

for (const database of await testDatabases('label changes while syncing')) {
  describe.skipIf(!database.enabled)(`Todoist label changes while syncing (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    for (const [provider, syncingUserOn] of Object.entries(SYNCING_USERS)) {
      it(`keeps the events of a label renamed in Todoist, and renames its setting (${provider})`, async () => {
        const user = await syncingUserOn(app(), `rename-label-${provider}@example.com`);
        const due = tomorrowAt(9);
        const first = await user.addTask('Write', due.day, 9, ['30min']);
        await user.addTask('Read', due.day, 11, ['30min', 'home']);
        await user.run();
        expect(await user.eventTitles()).toEqual(['Read', 'Write']);

        const label = (await user.todoist.getLabels()).results.find((entry) => entry.name === '30min');
        await user.todoist.updateLabel(label?.id ?? '', { name: 'Half hour' });
        expect((await user.todoist.getTask(first.id)).labels).toEqual(['Half hour']);
        expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
        expect(await user.eventTitles()).toEqual(['Read', 'Write']);

        // The dashboard shows the new name, and the label as one Todoist has (no warning row).
        const current = await user.send('GET', '/api/current_user');
        expect(current.todoSettings.timeboxSettings).toContainEqual({ label: 'Half hour', duration: 30 });
        expect(current.todoSettings.timeboxSettings).not.toContainEqual({ label: '30min', duration: 30 });
        expect(current.todoSettings.labels.map((entry: { name: string }) => entry.name)).toContain(
          'Half hour',
        );

        // A new task with the renamed label is timeboxed; an event of 30 minutes gets the new name.
        await user.addTask('Call', due.day, 14, ['Half hour']);
        await user.run();
        expect(await user.eventTitles()).toEqual(['Call', 'Read', 'Write']);
      });
    }

    it('keeps a meeting whose task got the label’s old name from a write that raced the rename', async () => {
      const user = await syncingUser(app(), 'rename-label-race@example.com');
      const meeting = await addStandup(user);
      await user.run();
      const [task] = (await user.todoist.getTasks()).results;
      expect(task?.labels).toEqual(['30min']);

      // The rename lands while a run is writing the task with the old name: Todoist renames the label on
      // its tasks, then the run's write puts the old name back on this one (a bare label).
      const label = (await user.todoist.getLabels()).results.find((entry) => entry.name === '30min');
      await user.todoist.updateLabel(label?.id ?? '', { name: 'Half hour' });
      await user.todoist.updateTask(task?.id ?? '', { labels: ['30min'] });

      expect(await user.run()).toMatchObject({ status: 'synced', writes: 1 });
      expect((await user.todoist.getTask(task?.id ?? '')).labels).toEqual(['Half hour']);
      expect((await user.events()).map((event) => event.id)).toEqual([meeting.id]);
      // Read in full (a reconcile) later, the task is in scope under the new name: the meeting stays.
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: false });
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect((await user.events()).map((event) => event.id)).toEqual([meeting.id]);
    });

    it('keeps that meeting when the rename was followed before the run: by the dashboard, or a failed run', async () => {
      for (const followedBy of ['dashboard', 'failed run'] as const) {
        const user = await syncingUser(
          app(),
          `rename-label-followed-${followedBy.replace(' ', '-')}@example.com`,
        );
        const meeting = await addStandup(user);
        await user.run();
        const [task] = (await user.todoist.getTasks()).results;
        const label = (await user.todoist.getLabels()).results.find((entry) => entry.name === '30min');
        await user.todoist.updateLabel(label?.id ?? '', { name: 'Half hour' });
        await user.todoist.updateTask(task?.id ?? '', { labels: ['30min'] });

        if (followedBy === 'dashboard') {
          await user.send('GET', '/api/todoist/updateuserprofile');
        } else {
          // The run follows the rename, then the calendar's read fails: nothing of the run is kept but that.
          await emulatorControl(user.origins.google, 'faults', {
            kind: 'status',
            status: 503,
            method: 'GET',
            path: '/calendar/v3/calendars/',
            times: 1,
          });
          const outcome = await user.run().then(
            (run) => run.status,
            () => 'failed',
          );
          expect(outcome).toBe('failed');
        }
        const current = await user.send('GET', '/api/current_user');
        expect(current.todoSettings.timeboxSettings).toContainEqual({ label: 'Half hour', duration: 30 });

        expect(await user.run()).toMatchObject({ status: 'synced', writes: 1 });
        expect((await user.todoist.getTask(task?.id ?? '')).labels).toEqual(['Half hour']);
        expect((await user.events()).map((event) => event.id)).toEqual([meeting.id]);
        // Carried out once: the next runs have nothing to relabel, and the meeting stays.
        expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
        expect((await user.events()).map((event) => event.id)).toEqual([meeting.id]);
      }
    });

    it('leaves a task with the old name alone once a label of that name exists again', async () => {
      const user = await syncingUser(app(), 'rename-label-new-old@example.com');
      const label = (await user.todoist.getLabels()).results.find((entry) => entry.name === '30min');
      await user.todoist.updateLabel(label?.id ?? '', { name: 'Half hour' });
      await user.send('GET', '/api/todoist/updateuserprofile');
      await user.todoist.addLabel({ name: '30min' });
      const task = await user.addTask('Stretch', tomorrowAt(9).day, 9, ['30min']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect((await user.todoist.getTask(task.id)).labels).toEqual(['30min']);
      // Not kept either: should the new label go, its tasks are not taken for the old one's.
      const [stored] = await app()
        .database.db.select({ renames: todoSettings.labelRenames })
        .from(todoSettings)
        .where(eq(todoSettings.userId, user.userId));
      expect(stored?.renames).toEqual([]);
    });

    it('renames the setting on the dashboard’s read of Todoist too, before any sync run', async () => {
      const user = await syncingUser(app(), 'rename-label-profile@example.com');
      const label = (await user.todoist.getLabels()).results.find((entry) => entry.name === '1h');
      await user.todoist.updateLabel(label?.id ?? '', { name: 'One hour' });
      await user.send('GET', '/api/todoist/updateuserprofile');
      const current = await user.send('GET', '/api/current_user');
      expect(current.todoSettings.timeboxSettings).toContainEqual({ label: 'One hour', duration: 60 });
    });

    it('turns the setting of a label deleted in Todoist into the missing-label row', async () => {
      const user = await syncingUser(app(), 'delete-label@example.com');
      const due = tomorrowAt(9);
      await user.addTask('Write', due.day, 9, ['1h']);
      await user.run();
      const label = (await user.todoist.getLabels()).results.find((entry) => entry.name === '1h');
      await user.todoist.deleteLabel(label?.id ?? '');
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const current = await user.send('GET', '/api/current_user');
      expect(current.todoSettings.timeboxSettings).toContainEqual({ label: '1h', duration: 60 });
      expect(current.todoSettings.labels.map((entry: { name: string }) => entry.name)).not.toContain('1h');

      // Made again under the same name: followed from then on, renames included.
      const again = await user.todoist.addLabel({ name: '1h' });
      await user.addTask('Plan', due.day, 15, ['1h']);
      await user.run();
      await user.todoist.updateLabel(again.id, { name: 'Hour' });
      await user.run();
      expect((await user.events()).map((event) => event.summary)).toEqual(['Plan']);
      expect((await user.send('GET', '/api/current_user')).todoSettings.timeboxSettings).toContainEqual({
        label: 'Hour',
        duration: 60,
      });
    });
  });
}
