import { calendar as googleCalendar } from '@googleapis/calendar';
import { OAuth2Client } from 'google-auth-library';
import { describe, expect, it } from 'vitest';
import { createGoogleCalendarEvents } from '#server/providers/google-calendar/google-calendar-events.adapter.ts';
import { createMicrosoftCalendarEvents } from '#server/providers/microsoft/microsoft-calendar-events.adapter.ts';
import { systemClock } from '#server/providers/shared/system-clock.adapter.ts';
import { testDatabases } from '#server/test/databases.ts';
import { connectThroughEmulator } from '#server/test/sign-in.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  appAccessToken,
  emulatorControl,
  microsoftSyncingUser,
  syncingUser,
  tomorrowAt,
} from '#server/test/sync-fixtures.ts';
import { CONNECT_PATHS } from '#shared/api/auth.schema.ts';

/**
 * Switching the calendar while sync is on (docs/product-rules.md §10): the pairs' events move to the
 * chosen calendar, none stays behind and none is made twice; an account no longer connected is never
 * written to, and the dashboard says what stayed there.
 */
for (const database of await testDatabases('calendar switches while syncing')) {
  describe.skipIf(!database.enabled)(`switching calendars while syncing (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    it('moves every linked event into the newly chosen Google calendar, keeping its id, once', async () => {
      const user = await syncingUser(app(), 'switch-google@example.com');
      const due = tomorrowAt(9);
      const write = await user.addTask('Write', due.day, 9, ['30min']);
      await user.addTask('Read', due.day, 11, ['1h']);
      await user.addEvent('Dentist', tomorrowAt(15).instant);
      await user.run();
      const before = await user.events();
      expect(before).toHaveLength(3);

      const current = await user.send('GET', '/api/current_user');
      const work = current.calendarSettings.calendars.find(
        (entry: { name: string }) => entry.name === 'Work',
      );
      await user.send('PATCH', '/api/calendar/id', { calendarId: work.id });
      expect(await user.run()).toMatchObject({ status: 'synced' });

      expect(await user.events()).toEqual([]);
      const moved = (await user.google.events.list({ calendarId: work.id })).data.items ?? [];
      expect(moved.map((event) => event.id).sort()).toEqual(before.map((event) => event.id).sort());
      expect(moved.map((event) => event.summary).sort()).toEqual(['Dentist', 'Read', 'Write']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });

      // The pair goes on in the new calendar.
      await user.todoist.updateTask(write.id, { content: 'Write the report' });
      await user.run();
      const after = (await user.google.events.list({ calendarId: work.id })).data.items ?? [];
      expect(after.map((event) => event.summary).sort()).toEqual(['Dentist', 'Read', 'Write the report']);
      expect(await user.events()).toEqual([]);
    });

    it('moves every linked event into the newly chosen Microsoft 365 calendar, once', async () => {
      const user = await microsoftSyncingUser(app(), 'switch-microsoft@example.com');
      const due = tomorrowAt(9);
      await user.addTask('Write', due.day, 9, ['30min']);
      await user.addEvent('Dentist', tomorrowAt(15).instant);
      await user.run();
      expect(await user.events()).toHaveLength(2);

      const current = await user.send('GET', '/api/current_user');
      const other = current.calendarSettings.calendars[1];
      await user.send('PATCH', '/api/calendar/id', { calendarId: other.id });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect(await user.events()).toEqual([]);
      const moved = (await user.graph('GET', `/me/calendars/${encodeURIComponent(other.id)}/events`)).value;
      expect(moved.map((event: { subject: string }) => event.subject).sort()).toEqual(['Dentist', 'Write']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('finds an event an interrupted move made already, on Google and on Microsoft 365', async () => {
      const google = await syncingUser(app(), 'switch-repeat-google@example.com');
      await google.addTask('Write', tomorrowAt(9).day, 9, ['30min']);
      await google.run();
      const [event] = await google.events();
      const { googleCalendar: googleConfig, microsoft: microsoftConfig } = app().config;
      if (!googleConfig || !microsoftConfig) throw new Error('the test app runs in sandbox mode');
      const googleTarget = createGoogleCalendarEvents(googleConfig, systemClock);
      const token = await appAccessToken(app(), google.userId, 'calendar');
      const current = await google.send('GET', '/api/current_user');
      const work = current.calendarSettings.calendars.find(
        (entry: { name: string }) => entry.name === 'Work',
      );
      const move = {
        fromCalendarId: google.calendarId,
        toCalendarId: work.id,
        eventId: event?.id ?? '',
        clientKey: 'k1',
      };
      const look = {
        timeZone: 'Europe/Berlin',
        color: '',
        category: null,
        private: false,
        reminderMinutes: null,
        description: null,
        taskId: 't1',
        appearance: true,
      };
      const first = await googleTarget.move(token, move, look);
      const again = await googleTarget.move(token, move, look);
      expect(again?.id).toBe(first?.id);
      expect(await googleTarget.move(token, { ...move, eventId: 'gone1234' }, look)).toBeNull();

      const microsoft = await microsoftSyncingUser(app(), 'switch-repeat-microsoft@example.com');
      await microsoft.addTask('Write', tomorrowAt(9).day, 9, ['30min']);
      await microsoft.run();
      const [graphEvent] = await microsoft.events();
      const msTarget = createMicrosoftCalendarEvents(microsoftConfig, systemClock);
      const msToken = await appAccessToken(app(), microsoft.userId, 'calendar');
      const msCurrent = await microsoft.send('GET', '/api/current_user');
      const to = msCurrent.calendarSettings.calendars[1].id;
      const from = msCurrent.calendarSettings.calendars[0].id;
      const msMove = {
        fromCalendarId: from,
        toCalendarId: to,
        eventId: graphEvent?.id ?? '',
        clientKey: 'k1',
      };
      const made = await msTarget.move(msToken, msMove, look);
      const repeated = await msTarget.move(msToken, msMove, look);
      expect(repeated?.id).toBe(made?.id);
      const inNew = (await microsoft.graph('GET', `/me/calendars/${encodeURIComponent(to)}/events`)).value;
      expect(inNew).toHaveLength(1);
      expect(await microsoft.events()).toEqual([]);
    });

    it('moves an event whose create lost its answer, on Google and on Microsoft 365: none left behind', async () => {
      const emulators = app().emulators;
      if (!emulators) throw new Error('the test app runs in sandbox mode');
      // The create is stored, its answer lost; before a run repeats it, the user picks another calendar.
      const loseNextCreate = (origin: string, path: string) =>
        emulatorControl(origin, 'faults', { kind: 'lose-response', method: 'POST', path, times: 1 });
      const failed = (run: Promise<{ status: string }>) =>
        run.then(
          (outcome) => outcome.status,
          () => 'failed',
        );

      const google = await syncingUser(app(), 'switch-pending-google@example.com');
      await google.addTask('Write', tomorrowAt(9).day, 9, ['30min']);
      await loseNextCreate(google.origins.google, '^/calendar/v3/calendars/[^/]+/events$');
      expect(await failed(google.run())).toBe('failed');
      expect(await google.events()).toHaveLength(1);
      const work = (await google.send('GET', '/api/current_user')).calendarSettings.calendars.find(
        (entry: { name: string }) => entry.name === 'Work',
      );
      await google.send('PATCH', '/api/calendar/id', { calendarId: work.id });
      expect(await google.run()).toMatchObject({ status: 'synced' });
      expect(await google.events()).toEqual([]);
      const inWork = (await google.google.events.list({ calendarId: work.id })).data.items ?? [];
      expect(inWork.map((event) => event.summary)).toEqual(['Write']);
      expect(await google.run()).toMatchObject({ status: 'synced', writes: 0 });

      const microsoft = await microsoftSyncingUser(app(), 'switch-pending-microsoft@example.com');
      await microsoft.addTask('Write', tomorrowAt(9).day, 9, ['30min']);
      await loseNextCreate(emulators.microsoft.origin, '^/v1.0/me/calendars/[^/]+/events$');
      expect(await failed(microsoft.run())).toBe('failed');
      expect(await microsoft.events()).toHaveLength(1);
      const other = (await microsoft.send('GET', '/api/current_user')).calendarSettings.calendars[1];
      await microsoft.send('PATCH', '/api/calendar/id', { calendarId: other.id });
      expect(await microsoft.run()).toMatchObject({ status: 'synced' });
      expect(await microsoft.events()).toEqual([]);
      const inOther = (await microsoft.graph('GET', `/me/calendars/${encodeURIComponent(other.id)}/events`))
        .value;
      expect(inOther.map((event: { subject: string }) => event.subject)).toEqual(['Write']);
      expect(await microsoft.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('never writes to another account’s calendar: its events stay, and the dashboard says where', async () => {
      const user = await syncingUser(app(), 'switch-account@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Write', due.day, 9, ['30min']);
      await user.addTask('Read', due.day, 11, ['1h']);
      await user.run();
      expect(await user.events()).toHaveLength(2);

      await user.send('GET', `${CONNECT_PATHS.google}/revoke`);
      await connectThroughEmulator(
        app().server,
        'google',
        { email: 'other-account@example.com' },
        user.cookies,
      );
      await user.send('PATCH', '/api/calendar/id', { calendarId: 'other-account@example.com' });
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      expect(await user.run()).toMatchObject({ status: 'synced' });

      // The first account's events are as they were; the new account's calendar has the tasks' events.
      const oldEvents = await user.events();
      expect(oldEvents.map((event) => event.summary).sort()).toEqual(['Read', 'Write']);
      const token = await emulatorControl(user.origins.google, 'tokens', {
        email: 'other-account@example.com',
        scopes: ['https://www.googleapis.com/auth/calendar'],
      });
      const auth = new OAuth2Client();
      auth.setCredentials({ access_token: token.access_token });
      const other = googleCalendar({ version: 'v3', auth, rootUrl: `${user.origins.google}/` });
      const newEvents =
        (await other.events.list({ calendarId: 'other-account@example.com' })).data.items ?? [];
      expect(newEvents.map((event) => event.summary).sort()).toEqual(['Read', 'Write']);

      const activity = await user.send('GET', '/api/sync/activity');
      expect(activity.leftBehind).toMatchObject({
        provider: 'google',
        calendarId: 'switch-account@example.com',
        events: 2,
      });
      // A change goes to the new account only.
      await user.todoist.updateTask(task.id, { content: 'Write more' });
      await user.run();
      expect((await user.events()).map((event) => event.summary).sort()).toEqual(['Read', 'Write']);
      const later = (await other.events.list({ calendarId: 'other-account@example.com' })).data.items ?? [];
      expect(later.map((event) => event.summary).sort()).toEqual(['Read', 'Write more']);

      const dismissed = await user.send('POST', '/api/sync/left-behind/dismiss', {});
      expect(dismissed.leftBehind).toBeNull();
    });

    it('switching from Google Calendar to Microsoft 365 (added, then Google removed) leaves Google as it was and says so', async () => {
      const user = await syncingUser(app(), 'switch-provider@example.com');
      const due = tomorrowAt(9);
      await user.addTask('Write', due.day, 9, ['30min']);
      await user.addTask('Read', due.day, 11, ['1h']);
      await user.run();
      await connectThroughEmulator(
        app().server,
        'microsoft',
        { email: 'switch-provider@example.com' },
        user.cookies,
      );
      // Added beside Google, which stays the sync's until it is removed; then Microsoft 365 takes its place.
      expect((await user.send('GET', '/api/current_user')).calendarSettings.provider).toBe('Google Calendar');
      await user.send('GET', `${CONNECT_PATHS.google}/revoke`);
      const current = await user.send('GET', '/api/current_user');
      expect(current.calendarSettings.provider).toBe('Microsoft');
      const calendarId = current.calendarSettings.calendars[0].id;
      await user.send('PATCH', '/api/calendar/id', { calendarId });
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      expect(await user.run()).toMatchObject({ status: 'synced' });

      const microsoft = app().emulators?.microsoft;
      const { access_token: token } = await emulatorControl(microsoft?.origin ?? '', 'tokens', {
        email: 'switch-provider@example.com',
      });
      const response = await fetch(
        `${microsoft?.graphBaseUrl}/v1.0/me/calendars/${encodeURIComponent(calendarId)}/events`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const graphEvents = ((await response.json()) as { value: { subject: string }[] }).value;
      expect(graphEvents.map((event) => event.subject).sort()).toEqual(['Read', 'Write']);
      // The Google events are as they were: nothing wrote to them.
      expect((await user.events()).map((event) => event.summary).sort()).toEqual(['Read', 'Write']);
      const activity = await user.send('GET', '/api/sync/activity');
      expect(activity.leftBehind).toMatchObject({ provider: 'google', events: 2 });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('gives every timeboxed task its event in another account, also when the run that left the old one behind failed', async () => {
      for (const [firstRun, secondRun] of [
        [false, false],
        [true, false],
        [false, true],
        [true, true],
      ] as const) {
        const email = `switch-away-back-${firstRun}-${secondRun}@example.com`;
        const second = `switch-away-back-${firstRun}-${secondRun}-account2@example.com`;
        const user = await syncingUser(app(), email);
        const due = tomorrowAt(7);
        await user.addTask('Write', due.day, 7, ['30min']);
        if (firstRun) await user.run();
        await user.send('PATCH', '/api/settings/onsyncactive', { setting: false });
        await user.send('GET', `${CONNECT_PATHS.google}/revoke`);
        await connectThroughEmulator(app().server, 'google', { email: second }, user.cookies);
        await user.send('PATCH', '/api/calendar/id', { calendarId: second });
        await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
        if (secondRun) {
          // The run that leaves the first account's pairs behind fails at its read of the new calendar.
          await emulatorControl(user.origins.google, 'faults', {
            kind: 'status',
            status: 503,
            method: 'GET',
            path: `^/calendar/v3/calendars/[^/]+/events$`,
            times: 1,
          });
          const outcome = await user.run().then(
            (run) => run.status,
            () => 'failed',
          );
          expect(outcome).toBe('failed');
        }
        await user.send('GET', `${CONNECT_PATHS.google}/revoke`);
        await user.addTask('Read', due.day, 8, ['30min']);
        await connectThroughEmulator(app().server, 'google', { email: second }, user.cookies);
        await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
        expect(await user.run()).toMatchObject({ status: 'synced' });
        const token = await emulatorControl(user.origins.google, 'tokens', {
          email: second,
          scopes: ['https://www.googleapis.com/auth/calendar'],
        });
        const auth = new OAuth2Client();
        auth.setCredentials({ access_token: token.access_token });
        const client = googleCalendar({ version: 'v3', auth, rootUrl: `${user.origins.google}/` });
        const inSecond = (await client.events.list({ calendarId: second })).data.items ?? [];
        expect(inSecond.map((event) => event.summary).sort(), `runs: ${firstRun}, ${secondRun}`).toEqual([
          'Read',
          'Write',
        ]);
        expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      }
    });

    it('resumes without a single duplicate when the same account is connected again', async () => {
      const user = await syncingUser(app(), 'switch-reconnect@example.com');
      const due = tomorrowAt(9);
      await user.addTask('Write', due.day, 9, ['30min']);
      await user.run();
      await user.send('GET', `${CONNECT_PATHS.google}/revoke`);
      await user.addTask('Read', due.day, 11, ['1h']);
      await connectThroughEmulator(
        app().server,
        'google',
        { email: 'switch-reconnect@example.com' },
        user.cookies,
      );
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect((await user.events()).map((event) => event.summary).sort()).toEqual(['Read', 'Write']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect((await user.send('GET', '/api/sync/activity')).leftBehind).toBeNull();
    });
  });
}
