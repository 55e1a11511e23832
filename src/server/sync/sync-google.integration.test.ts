import { TodoistApi } from '@doist/todoist-sdk';
import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { testDatabases } from '#server/test/databases.ts';
import { connectThroughEmulator, signInThroughEmulator } from '#server/test/sign-in.ts';
import { createTestApp, sameOrigin } from '#server/test/test-app.ts';

type Cookies = Record<string, string>;
const HOUR = 3600_000;

/** Tomorrow at `hour`:00 in Berlin, as Todoist's floating due and as the instant it means. */
function tomorrowAt(hour: number) {
  const day = new Date(Date.now() + 24 * HOUR).toISOString().slice(0, 10);
  const local = `${day}T${String(hour).padStart(2, '0')}:00:00`;
  const instant = new Date(new Date(`${local}Z`).getTime() - berlinOffsetMs(new Date(`${local}Z`)));
  return { local, instant };
}

function berlinOffsetMs(at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const hours = Number(/GMT([+-]\d+)/.exec(parts ?? '')?.[1] ?? 0);
  return hours * HOUR;
}

for (const database of await testDatabases('sync with Google Calendar')) {
  describe.skipIf(!database.enabled)(`sync between Todoist and Google Calendar (${database.name})`, () => {
    let app: App;
    let cleanup: () => Promise<void>;
    let origins: { todoist: string; google: string };

    beforeAll(async () => {
      const created = await database.create();
      cleanup = created.cleanup;
      app = await createTestApp({
        database: created.target,
        env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
        overrides: { role: 'web' },
      });
      if (!app.emulators) throw new Error('the test app runs in sandbox mode');
      origins = { todoist: app.emulators.todoist.origin, google: app.emulators.googleCalendar.origin };
    });
    afterAll(async () => {
      await app?.close();
      await cleanup?.();
    });

    const control = async (origin: string, path: string, body?: unknown) => {
      const response = await fetch(`${origin}/_emulator/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      return response.json();
    };

    /** A signed-in user with Todoist and Google connected, a 30- and a 60-minute timebox, sync on. */
    async function syncingUser(email: string, settings: { color?: string; onComplete?: string } = {}) {
      const seeded = await control(origins.todoist, 'seed', {
        users: [
          {
            email,
            timezone: 'Europe/Berlin',
            labels: [
              { name: '30min', color: 'blue' },
              { name: '1h', color: 'red' },
            ],
          },
        ],
      });
      const todoist = new TodoistApi(seeded.users[0].accessToken, { baseUrl: origins.todoist });
      const { sessionCookie } = await signInThroughEmulator(app.server, 'google', {
        email,
        name: 'Ada User',
      });
      const cookies: Cookies = { sid: sessionCookie?.value ?? '' };
      await connectThroughEmulator(app.server, 'todoist', { email }, cookies);
      await connectThroughEmulator(app.server, 'google', { email }, cookies);
      const send = async (method: 'POST' | 'PATCH', url: string, payload: unknown) => {
        const response = await app.server.inject({
          method,
          url,
          cookies,
          headers: sameOrigin,
          payload: payload as object,
        });
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
        return response.json();
      };
      await send('POST', '/api/timeboxsettings', { label: '30min', duration: 30 });
      await send('POST', '/api/timeboxsettings', { label: '1h', duration: 60 });
      const user = await send('PATCH', '/api/calendar/id', { calendarId: email });
      if (settings.color) await send('PATCH', '/api/calendar/color', { color: settings.color });
      if (settings.onComplete)
        await send('PATCH', '/api/settings/oncomplete', { setting: settings.onComplete });
      await send('PATCH', '/api/settings/onsyncactive', { setting: true });
      const token = await control(origins.google, 'tokens', {
        email,
        scopes: ['https://www.googleapis.com/auth/calendar'],
      });
      const auth = new OAuth2Client();
      auth.setCredentials({ access_token: token.access_token });
      const google = calendar({ version: 'v3', auth, rootUrl: `${origins.google}/` });
      const userId: string = user.id ?? user._id;
      const events = async (): Promise<calendar_v3.Schema$Event[]> =>
        (await google.events.list({ calendarId: email })).data.items ?? [];
      return {
        userId,
        cookies,
        todoist,
        google,
        events,
        calendarId: email,
        run: () => app.sync.engine.run(userId),
      };
    }

    it('creates an event for a timeboxed task, at its due time in the user’s zone, once', async () => {
      const user = await syncingUser('create-event@example.com');
      const due = tomorrowAt(9);
      const task = await user.todoist.addTask({
        content: 'Write the report',
        labels: ['30min'],
        dueDatetime: undefined,
        dueString: `${due.local.slice(0, 10)} at 9:00`,
      });
      await user.todoist.addTask({
        content: 'No timebox here',
        dueString: `${due.local.slice(0, 10)} at 10:00`,
      });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      const [event, ...others] = await user.events();
      expect(others).toEqual([]);
      expect(event?.summary).toBe('Write the report');
      expect(new Date(event?.start?.dateTime ?? '').toISOString()).toBe(due.instant.toISOString());
      expect(new Date(event?.end?.dateTime ?? '').getTime() - due.instant.getTime()).toBe(30 * 60_000);
      expect(event?.extendedProperties?.private?.timeboxerTaskId).toBe(task.id);

      // Our own write comes back as a change: it costs no write on either side.
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect((await user.events()).length).toBe(1);
    });

    it('follows a task’s title, time and timebox label, and removes the event when the label goes', async () => {
      const user = await syncingUser('update-event@example.com');
      const due = tomorrowAt(9);
      const task = await user.todoist.addTask({
        content: 'Plan',
        labels: ['30min'],
        dueString: `${due.local.slice(0, 10)} at 9:00`,
      });
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
      const task = await user.todoist.addTask({
        content: 'Review',
        labels: ['30min'],
        dueString: `${due.local.slice(0, 10)} at 9:00`,
      });
      await user.run();
      const [event] = await user.events();
      const start = tomorrowAt(14).instant;
      await user.google.events.patch({
        calendarId: user.calendarId,
        eventId: event?.id ?? '',
        requestBody: {
          start: { dateTime: start.toISOString() },
          end: { dateTime: new Date(start.getTime() + 60 * 60_000).toISOString() },
        },
      });
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
        requestBody: {
          summary: 'Dentist',
          start: { dateTime: start.toISOString() },
          end: { dateTime: new Date(start.getTime() + 30 * 60_000).toISOString() },
        },
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
      const task = await user.todoist.addTask({
        content: 'Keep me',
        labels: ['30min', 'work'],
        dueString: `${due.local.slice(0, 10)} at 9:00`,
      });
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
      const task = await user.todoist.addTask({
        content: 'Call Bob',
        labels: ['30min'],
        dueString: `${due.local.slice(0, 10)} at 9:00`,
      });
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
      const task = await user.todoist.addTask({
        content: 'Gym',
        labels: ['1h'],
        dueString: `${due.local.slice(0, 10)} at 9:00`,
      });
      await user.run();
      await user.todoist.closeTask(task.id);
      await user.run();
      expect(await user.events()).toEqual([]);
      await user.todoist.reopenTask(task.id);
      await user.run();
      expect((await user.events()).map((event) => event.summary)).toEqual(['Gym']);
    });

    it('deletes the event when its task is deleted', async () => {
      const user = await syncingUser('task-deleted@example.com');
      const due = tomorrowAt(9);
      const task = await user.todoist.addTask({
        content: 'Temp',
        labels: ['30min'],
        dueString: `${due.local.slice(0, 10)} at 9:00`,
      });
      await user.run();
      await user.todoist.deleteTask(task.id);
      await user.run();
      expect(await user.events()).toEqual([]);
    });

    it('reads the calendar in full once when Google expires the sync token, without duplicating', async () => {
      const user = await syncingUser('gone-410@example.com');
      const due = tomorrowAt(9);
      await user.todoist.addTask({
        content: 'Stay single',
        labels: ['30min'],
        dueString: `${due.local.slice(0, 10)} at 9:00`,
      });
      await user.run();
      await control(
        origins.google,
        `calendars/${encodeURIComponent(user.calendarId)}/expire-sync-tokens`,
        {},
      );
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect((await user.events()).length).toBe(1);
    });

    it('does not sync once the trial has ended', async () => {
      const user = await syncingUser('trial-ended@example.com');
      const { users } = await import('#server/db/schema/users.table.ts');
      const { eq } = await import('drizzle-orm');
      await app.database.db
        .update(users)
        .set({ validUntil: new Date(Date.now() - HOUR) })
        .where(eq(users.id, user.userId));
      const due = tomorrowAt(9);
      await user.todoist.addTask({
        content: 'Unpaid',
        labels: ['30min'],
        dueString: `${due.local.slice(0, 10)} at 9:00`,
      });
      expect(await user.run()).toMatchObject({ status: 'skipped', reason: 'not-entitled' });
      expect(await user.events()).toEqual([]);
    });
  });
}
