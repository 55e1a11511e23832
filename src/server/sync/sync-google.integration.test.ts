import { beforeAll, describe, expect, it } from 'vitest';
import { syncHints, syncProblems } from '#server/db/schema/sync.tables.ts';
import { createSettingsRepository } from '#server/domain/settings/settings.repository.ts';
import { createSyncSettingsReader } from '#server/sync/store/sync-settings.repository.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  syncingUser as createSyncingUser,
  emulatorControl,
  googleSpan,
  type SyncingUser,
  tomorrowAt,
} from '#server/test/sync-fixtures.ts';

for (const database of await testDatabases('sync with Google Calendar')) {
  describe.skipIf(!database.enabled)(`sync between Todoist and Google Calendar (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });
    let origins: { todoist: string; google: string };
    const HOUR = 3600_000;

    beforeAll(() => {
      const emulators = app().emulators;
      if (!emulators) throw new Error('the test app runs in sandbox mode');
      origins = { todoist: emulators.todoist.origin, google: emulators.googleCalendar.origin };
    });

    const control = emulatorControl;
    const syncingUser = (email: string, settings?: { color?: string; onComplete?: string }) =>
      createSyncingUser(app(), email, settings);

    it('creates an event for a timeboxed task, at its due time in the user’s zone, once', async () => {
      const user = await syncingUser('create-event@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Write the report', due.day, 9, ['30min']);
      await user.addTask('No timebox here', due.day, 10);
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const [event, ...others] = await user.events();
      expect(others).toEqual([]);
      expect(event?.summary).toBe('Write the report');
      expect(new Date(event?.start?.dateTime ?? '').toISOString()).toBe(due.instant.toISOString());
      expect(new Date(event?.end?.dateTime ?? '').getTime() - due.instant.getTime()).toBe(30 * 60_000);
      expect(event?.extendedProperties?.private?.timeboxerTaskId).toBe(task.id);

      // Our own write comes back as a change: it costs no write on either side, by the emulators' count.
      const googleWrites = async () => {
        const { requests } = await control(origins.google, 'state');
        return Object.entries(requests as Record<string, number>)
          .filter(
            ([route]) => /^(POST|PATCH|PUT|DELETE) .*\/events(\/|$)/.test(route) && !route.includes('watch'),
          )
          .reduce((sum, [, count]) => sum + count, 0);
      };
      const writesBefore = await googleWrites();
      expect(writesBefore).toBeGreaterThan(0);
      const taskBefore = await user.todoist.getTask(task.id);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect(await googleWrites()).toBe(writesBefore);
      expect((await user.todoist.getTask(task.id)).updatedAt).toEqual(taskBefore.updatedAt);
      expect((await user.events()).length).toBe(1);
    });

    it('follows a task’s title, time and timebox label, and removes the event when the label goes', async () => {
      const user = await syncingUser('update-event@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Plan', due.day, 9, ['30min']);
      await user.run();
      await user.todoist.updateTask(task.id, {
        content: 'Plan the week',
        labels: ['1h'],
        dueString: `${due.local.slice(0, 10)} at 11:00`,
      });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 1 });
      const [event] = await user.events();
      expect(event?.summary).toBe('Plan the week');
      const start = new Date(event?.start?.dateTime ?? '');
      expect(start.toISOString()).toBe(tomorrowAt(11).instant.toISOString());
      expect(new Date(event?.end?.dateTime ?? '').getTime() - start.getTime()).toBe(60 * 60_000);

      await user.todoist.updateTask(task.id, { labels: [] });
      await user.run();
      expect(await user.events()).toEqual([]);
    });

    it('moves the task when the event moves, and takes the timebox label of the new length', async () => {
      const user = await syncingUser('move-event@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Review', due.day, 9, ['30min']);
      await user.run();
      const [event] = await user.events();
      const start = tomorrowAt(14).instant;
      await user.moveEvent(event?.id, start, 60);
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const moved = await user.todoist.getTask(task.id);
      expect(moved.due?.date ?? '').toContain(`${due.local.slice(0, 10)}`);
      expect(moved.due?.datetime ?? moved.due?.date).toContain('T14:00');
      expect(moved.labels).toEqual(['1h']);
      // The task's change is our own echo: the next run writes nothing.
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('turns a new event of the chosen colour into a task, and deletes that task with the event', async () => {
      const user = await syncingUser('event-to-task@example.com');
      const start = tomorrowAt(16).instant;
      const created = await user.google.events.insert({
        calendarId: user.calendarId,
        requestBody: { summary: 'Dentist', ...googleSpan(start, 30) },
      });
      await user.google.events
        .insert({
          calendarId: user.calendarId,
          requestBody: {
            summary: 'Holiday',
            start: { date: tomorrowAt(0).local.slice(0, 10) },
            end: { date: tomorrowAt(0).local.slice(0, 10) },
          },
        })
        .catch(() => undefined);
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const tasks = (await user.todoist.getTasks()).results;
      expect(tasks.map((task) => [task.content, task.labels])).toEqual([['Dentist', ['30min']]]);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });

      await user.google.events.delete({ calendarId: user.calendarId, eventId: created.data.id ?? '' });
      await user.run();
      expect((await user.todoist.getTasks()).results).toEqual([]);
    });

    it('keeps a task that existed first when its event is deleted: no label, no time, same date', async () => {
      const user = await syncingUser('event-deleted@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Keep me', due.day, 9, ['30min', 'work']);
      await user.run();
      const [event] = await user.events();
      await user.google.events.delete({ calendarId: user.calendarId, eventId: event?.id ?? '' });
      await user.run();
      const kept = await user.todoist.getTask(task.id);
      expect(kept.content).toBe('Keep me');
      expect(kept.labels).toEqual(['work']);
      expect(kept.due?.date).toBe(due.local.slice(0, 10));
    });

    it('marks the event of a completed task with a checkmark, and unmarks it when reopened', async () => {
      const user = await syncingUser('complete-mark@example.com', { onComplete: 'checkmark' });
      const due = tomorrowAt(9);
      const task = await user.addTask('Call Bob', due.day, 9, ['30min']);
      await user.run();
      await user.todoist.closeTask(task.id);
      await user.run();
      expect((await user.events())[0]?.summary).toBe('✓ Call Bob');
      await user.todoist.reopenTask(task.id);
      await user.run();
      expect((await user.events())[0]?.summary).toBe('Call Bob');
    });

    it('removes the event of a completed task with "remove", and brings it back when reopened', async () => {
      const user = await syncingUser('complete-remove@example.com', { onComplete: 'remove' });
      const due = tomorrowAt(9);
      const task = await user.addTask('Gym', due.day, 9, ['1h']);
      await user.run();
      await user.todoist.closeTask(task.id);
      await user.run();
      expect(await user.events()).toEqual([]);
      await user.todoist.reopenTask(task.id);
      await user.run();
      expect((await user.events()).map((event) => event.summary)).toEqual(['Gym']);
    });

    it('removes the event of a task completed before it started, with the pre-complete option', async () => {
      const user = await syncingUser('pre-complete@example.com');
      await user.send('PATCH', '/api/settings/onprecomplete', { setting: true });
      const task = await user.addTask('Early bird', tomorrowAt(9).day, 9, ['30min']);
      await user.run();
      expect(await user.events()).toHaveLength(1);
      await user.todoist.closeTask(task.id);
      await user.run();
      expect(await user.events()).toEqual([]);
    });

    it('deletes the event when its task is deleted', async () => {
      const user = await syncingUser('task-deleted@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Temp', due.day, 9, ['30min']);
      await user.run();
      await user.todoist.deleteTask(task.id);
      await user.run();
      expect(await user.events()).toEqual([]);
    });

    it('reads the calendar in full once when Google expires the sync token, without duplicating', async () => {
      const user = await syncingUser('gone-410@example.com');
      const due = tomorrowAt(9);
      await user.addTask('Stay single', due.day, 9, ['30min']);
      await user.run();
      await control(
        origins.google,
        `calendars/${encodeURIComponent(user.calendarId)}/expire-sync-tokens`,
        {},
      );
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect((await user.events()).length).toBe(1);
    });

    it('applies settings changed later to existing events: colour, privacy, reminder, task link', async () => {
      const user = await syncingUser('restyle@example.com');
      const task = await user.addTask('Restyle me', tomorrowAt(9).day, 9, ['30min']);
      await user.run();
      expect((await user.events())[0]).toMatchObject({ summary: 'Restyle me', visibility: 'default' });
      await user.send('PATCH', '/api/calendar/color', { color: '5' });
      await user.send('PATCH', '/api/calendar/private', { private: true });
      await user.send('PATCH', '/api/calendar/reminder', { reminder: 15 });
      await user.send('PATCH', '/api/calendar/todoistlinkdescription', { todoistLinkDescription: true });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 1 });
      const [event] = await user.events();
      expect(event).toMatchObject({
        summary: 'Restyle me',
        colorId: '5',
        visibility: 'private',
        reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 15 }] },
        description: `https://app.todoist.com/app/task/${task.id}`,
      });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    /** A run whose event create Google stores but whose answer is lost: the run fails. */
    const runWithLostEventCreate = async (user: { run: () => Promise<unknown> }) => {
      await control(origins.google, 'faults', {
        kind: 'lose-response',
        method: 'POST',
        path: '^/calendar/v3/calendars/[^/]+/events$',
        times: 1,
      });
      await expect(user.run()).rejects.toThrow();
    };

    it('makes no second event when Google stored the first but the answer was lost', async () => {
      const user = await syncingUser('lost-create@example.com');
      await user.addTask('Only once', tomorrowAt(9).day, 9, ['30min']);
      await runWithLostEventCreate(user);
      expect((await user.events()).map((event) => event.summary)).toEqual(['Only once']);
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect((await user.events()).map((event) => event.summary)).toEqual(['Only once']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('gives the event the task’s new length when the task changed before a lost create was repeated', async () => {
      const user = await syncingUser('lost-create-changed@example.com');
      const task = await user.addTask('Grows shorter', tomorrowAt(9).day, 9, ['1h']);
      await runWithLostEventCreate(user);
      // Google made the hour-long event; before the run is repeated, the task becomes a 30-minute one.
      await user.todoist.updateTask(task.id, { labels: ['30min'] });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const [event, ...others] = await user.events();
      expect(others).toEqual([]);
      const start = new Date(event?.start?.dateTime ?? '').getTime();
      expect(new Date(event?.end?.dateTime ?? '').getTime() - start).toBe(HOUR / 2);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('gives the event the settings changed before a lost create was repeated (the link to the task)', async () => {
      const user = await syncingUser('lost-create-restyled@example.com');
      const task = await user.addTask('Linked later', tomorrowAt(9).day, 9, ['30min']);
      await runWithLostEventCreate(user);
      expect((await user.events())[0]?.description ?? null).toBeNull();
      await user.send('PATCH', '/api/calendar/todoistlinkdescription', { todoistLinkDescription: true });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const [event, ...others] = await user.events();
      expect(others).toEqual([]);
      expect(event?.description).toContain(task.id);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('removes the event a lost create made when its task left the scope before the repeat', async () => {
      const user = await syncingUser('lost-create-unlabelled@example.com');
      const task = await user.addTask('Not a timebox after all', tomorrowAt(10).day, 10, ['30min']);
      await runWithLostEventCreate(user);
      expect((await user.events()).length).toBe(1);
      await user.todoist.updateTask(task.id, { labels: [] });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect(await user.events()).toEqual([]);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    /**
     * A user's new half-hour event, and a run whose task create Todoist applies but whose answer is
     * lost (the run reads Todoist first: that /sync goes through): the run fails. The event's id.
     */
    const eventWithLostTaskAdd = async (user: SyncingUser, summary: string, hour: number) => {
      const start = tomorrowAt(hour).instant;
      const made = await user.google.events.insert({
        calendarId: user.calendarId,
        requestBody: {
          summary,
          start: { dateTime: start.toISOString() },
          end: { dateTime: new Date(start.getTime() + HOUR / 2).toISOString() },
        },
      });
      await control(origins.todoist, 'faults', {
        kind: 'lose-response',
        method: 'POST',
        path: '/api/v1/sync',
        skip: 1,
        times: 1,
      });
      await expect(user.run()).rejects.toThrow();
      return made.data.id ?? '';
    };

    it('makes no second task when Todoist applied the first but the answer was lost', async () => {
      const user = await syncingUser('lost-add@example.com');
      await eventWithLostTaskAdd(user, 'Once in Todoist', 11);
      const contents = async () => (await user.todoist.getTasks()).results.map((task) => task.content);
      expect(await contents()).toEqual(['Once in Todoist']);
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect(await contents()).toEqual(['Once in Todoist']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('deletes the task a lost create made when its event was deleted before the repeat', async () => {
      const user = await syncingUser('lost-add-deleted@example.com');
      const eventId = await eventWithLostTaskAdd(user, 'Gone before the retry', 12);
      const contents = async () => (await user.todoist.getTasks()).results.map((task) => task.content);
      expect(await contents()).toEqual(['Gone before the retry']);
      await user.google.events.delete({ calendarId: user.calendarId, eventId });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect(await contents()).toEqual([]);
      expect(await user.events()).toEqual([]);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect(await user.events()).toEqual([]);
    });

    it('waits as long as Google asks on a 429, and says the quota was reached', async () => {
      const user = await syncingUser('rate-limited@example.com');
      await control(origins.google, 'faults', {
        kind: 'rate-limit',
        retryAfterSeconds: 7,
        times: 1,
        path: '/calendar/v3',
      });
      const outcome = await user.run();
      expect(outcome).toEqual({ status: 'retry-later', afterMs: 7000 });
      const activity = await app().sync.service.activity(user.userId);
      expect(activity.problems.map((problem) => problem.code)).toEqual(['quota-reached']);
      // Within the wait, a run does not call Google again.
      expect(await user.run()).toMatchObject({ status: 'retry-later' });
    });

    it.each(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded'])(
      'takes a 403 %s as Google’s limit: the run waits and says the quota was reached',
      async (reason) => {
        const user = await syncingUser(`limited-403-${reason.toLowerCase()}@example.com`);
        await control(origins.google, 'faults', { kind: 'status', status: 403, reason, times: 1 });
        expect(await user.run()).toMatchObject({ status: 'retry-later' });
        const activity = await app().sync.service.activity(user.userId);
        expect(activity.problems.map((problem) => problem.code)).toEqual(['quota-reached']);
      },
    );

    it('clears the problems a run that goes through proves solved, and reads that none is left', async () => {
      const user = await syncingUser('cleared@example.com');
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const since = new Date();
      await app()
        .database.db.insert(syncProblems)
        .values({ userId: user.userId, code: 'quota-reached', since });
      const context = await createSyncSettingsReader(app().database.db).load(user.userId, new Date());
      expect(context).toMatchObject({ runnable: true, problemsOpen: true });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect((await app().sync.service.activity(user.userId)).problems).toEqual([]);
      expect(await createSyncSettingsReader(app().database.db).load(user.userId, new Date())).toMatchObject({
        problemsOpen: false,
      });
    });

    it('says with the settings whether hints of completed occurrences wait, and which labels are stored', async () => {
      const user = await syncingUser('hinted@example.com');
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const load = () => createSyncSettingsReader(app().database.db).load(user.userId, new Date());
      const before = await load();
      if (!before.runnable) throw new Error('expected a runnable context');
      expect(before.hintsWaiting).toBe(false);
      expect(before.labels.labels.map((label) => label.name)).toEqual(expect.arrayContaining(['30min']));
      expect(before.labels.renames).toEqual([]);
      await app()
        .database.db.insert(syncHints)
        .values({ userId: user.userId, taskId: 'a-task', at: new Date() });
      expect(await load()).toMatchObject({ hintsWaiting: true });
      // The run reads the hint and uses it up.
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect(await load()).toMatchObject({ hintsWaiting: false });

      // A run that read no label change takes the renames in force from what it loaded: the stored
      // row is not read (it says otherwise here), and a rename whose old name is a label again is over.
      const settings = createSettingsRepository(app().database.db);
      const label = (name: string) => ({ id: name, name, color: 'red', item_order: 1 });
      const known = {
        labels: [label('Half hour'), label('deep')],
        renames: [
          { from: '30min', to: 'Half hour' },
          { from: 'deep', to: 'Deep work' },
        ],
      };
      const applied = await settings.applyLabelChanges(user.userId, [], false, new Date(), known);
      expect(applied).toEqual({
        timeboxes: [],
        taskDurationLabel: null,
        renames: [{ from: '30min', to: 'Half hour' }],
      });
      // Without it, the stored row is read: no renames are kept there.
      expect((await settings.applyLabelChanges(user.userId, [], false, new Date())).renames).toEqual([]);
    });

    it('pauses with "connect again" when the calendar grant was revoked outside the product', async () => {
      const user = await syncingUser('revoked@example.com');
      const { integrations } = await import('#server/db/schema/integrations.table.ts');
      const { createTokenCipher } = await import('#server/domain/integrations/token-cipher.ts');
      const { and, eq } = await import('drizzle-orm');
      const [row] = await app()
        .database.db.select()
        .from(integrations)
        .where(and(eq(integrations.userId, user.userId), eq(integrations.kind, 'calendar')));
      const token = createTokenCipher(app().config.tokenKeys).decrypt(row?.refreshTokenEncrypted ?? '');
      expect((await fetch(`${origins.google}/revoke?token=${token}`, { method: 'POST' })).ok).toBe(true);
      expect(await user.run()).toEqual({ status: 'blocked', problem: 'reconnect-calendar' });
      const activity = await app().sync.service.activity(user.userId);
      expect(activity.problems.map((problem) => problem.code)).toEqual(['reconnect-calendar']);
      expect(await user.run()).toMatchObject({ status: 'skipped', reason: 'reconnect' });
    });

    it('pauses with "the chosen calendar no longer exists" once the account can only read it', async () => {
      const user = await syncingUser('read-only-now@example.com');
      await user.addTask('Before', tomorrowAt(9).day, 9, ['30min']);
      await user.run();
      expect(await user.eventTitles()).toEqual(['Before']);
      // The calendar's owner shares it to read only now: Google refuses our writes with 403.
      await emulatorControl(origins.google, `calendars/${encodeURIComponent(user.calendarId)}/access`, {
        accessRole: 'reader',
      });
      await user.addTask('After', tomorrowAt(10).day, 10, ['30min']);
      expect(await user.run()).toEqual({ status: 'blocked', problem: 'calendar-missing' });
      const activity = await app().sync.service.activity(user.userId);
      expect(activity.problems.map((problem) => problem.code)).toEqual(['calendar-missing']);
      expect(await user.eventTitles()).toEqual(['Before']);
    });

    it('renews the calendar channel before it expires and stops the old one', async () => {
      const user = await syncingUser('renew-channel@example.com');
      const { syncStates } = await import('#server/db/schema/sync.tables.ts');
      const { eq } = await import('drizzle-orm');
      const state = async () =>
        (await app().database.db.select().from(syncStates).where(eq(syncStates.userId, user.userId)))[0];
      // The test app is not reachable, but Google takes any address: the channel is opened on the first run.
      await user.run();
      const first = await state();
      expect(first?.channelId).toBeTruthy();
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect((await state())?.channelId).toBe(first?.channelId);

      await app()
        .database.db.update(syncStates)
        .set({ channelExpiresAt: new Date(Date.now() + HOUR) })
        .where(eq(syncStates.userId, user.userId));
      await user.run();
      const renewed = await state();
      expect(renewed?.channelId).toBeTruthy();
      expect(renewed?.channelId).not.toBe(first?.channelId);
      expect(renewed?.channelExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 24 * HOUR);
      const { channels } = await control(origins.google, 'state');
      const live = (id: string | null | undefined) =>
        channels.find((entry: { id: string }) => entry.id === id)?.live;
      expect(live(first?.channelId)).toBe(false);
      expect(live(renewed?.channelId)).toBe(true);
    });

    it('does not sync once the trial has ended', async () => {
      const user = await syncingUser('trial-ended@example.com');
      const { users } = await import('#server/db/schema/users.table.ts');
      const { eq } = await import('drizzle-orm');
      await app()
        .database.db.update(users)
        .set({ validUntil: new Date(Date.now() - HOUR) })
        .where(eq(users.id, user.userId));
      const due = tomorrowAt(9);
      await user.addTask('Unpaid', due.day, 9, ['30min']);
      expect(await user.run()).toMatchObject({ status: 'skipped', reason: 'not-entitled' });
      expect(await user.events()).toEqual([]);
    });
  });
}
