import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { otherSyncOf } from '#server/providers/google-calendar/other-sync-marker.ts';
import { connectThroughEmulator, signInThroughEmulator } from '#server/test/sign-in.ts';
import { createTestApp, crossSite, sameOrigin, useTestApp } from '#server/test/test-app.ts';
import { NOT_YOUR_SANDBOX_ACCOUNT } from './sandbox.routes.ts';

/** A 400 whose first issue names `field` with `message`. */
function expectFieldIssue(response: LightMyRequestResponse, field: string, message: string) {
  expect(response.statusCode).toBe(400);
  expect(response.json().issues[0]).toMatchObject({ field, message });
}

const email = 'sandbox-visitor@example.com';
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('sandbox console routes', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  /**
   * The console acts only on the signed-in user's own accounts, so each call is made by the user signed
   * in with the address it names (in its body, else its query): one session per address.
   */
  const sessions = new Map<string, Promise<Record<string, string>>>();
  const signedInAs = (address: string) => {
    let cookies = sessions.get(address);
    if (!cookies) {
      cookies = signInThroughEmulator(app.server, 'google', { email: address, name: 'Sandbox Visitor' }).then(
        ({ sessionCookie }) => ({ sid: sessionCookie?.value ?? '' }),
      );
      sessions.set(address, cookies);
    }
    return cookies;
  };
  const addressOf = (url: string, payload?: unknown) =>
    (payload as { email?: string } | undefined)?.email ??
    new URL(url, 'http://localhost').searchParams.get('email') ??
    '';
  const send = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    app.server.inject({
      method,
      url,
      payload: payload as object,
      headers: sameOrigin,
      cookies: await signedInAs(addressOf(url, payload)),
    });
  const get = async (url: string) => app.server.inject({ url, cookies: await signedInAs(addressOf(url)) });
  const todoist = async () => (await get(`/api/sandbox/todoist?${q({ email })}`)).json();

  it('adds, edits, completes and deletes Todoist tasks on the emulator', async () => {
    const due = '2030-05-06T09:30:00.000Z';
    const added = await send('POST', '/api/sandbox/todoist/tasks', {
      email,
      content: 'Write the report',
      due,
      labels: ['30Minutes'],
      durationMinutes: 30,
    });
    expect(added.statusCode).toBe(200);
    const [task] = (await todoist()).tasks;
    expect(task).toMatchObject({ content: 'Write the report', labels: ['30Minutes'], durationMinutes: 30 });
    expect(Date.parse(task.due.datetime)).toBe(Date.parse(due));

    await send('PATCH', `/api/sandbox/todoist/tasks/${task.id}`, {
      email,
      content: 'Write the final report',
    });
    const [edited] = (await todoist()).tasks;
    expect(edited).toMatchObject({
      id: task.id,
      content: 'Write the final report',
      due: null,
      durationMinutes: null,
    });

    await send('POST', `/api/sandbox/todoist/tasks/${task.id}/close`, { email });
    expect((await todoist()).tasks).toEqual([]);

    await send('POST', '/api/sandbox/todoist/tasks', { email, content: 'Delete me' });
    const [doomed] = (await todoist()).tasks;
    await send('DELETE', `/api/sandbox/todoist/tasks/${doomed.id}?${q({ email })}`);
    expect((await todoist()).tasks).toEqual([]);
  });

  describe('a task with a date but no time', () => {
    const owner = 'dated-tasks@example.com';
    const read = async () => (await get(`/api/sandbox/todoist?${q({ email: owner })}`)).json().tasks;

    it('is added with a due date, given a time, and made date-only again', async () => {
      const added = await send('POST', '/api/sandbox/todoist/tasks', {
        email: owner,
        content: 'Pay the rent',
        dueDate: '2030-05-06',
        labels: ['30Minutes'],
      });
      expect(added.statusCode).toBe(200);
      const [task] = await read();
      expect(task).toMatchObject({
        content: 'Pay the rent',
        due: { date: '2030-05-06', datetime: null, isRecurring: false },
      });

      const due = '2030-05-07T09:30:00.000Z';
      await send('PATCH', `/api/sandbox/todoist/tasks/${task.id}`, {
        email: owner,
        content: 'Pay the rent',
        due,
      });
      const [timed] = await read();
      expect(Date.parse(timed.due.datetime)).toBe(Date.parse(due));

      await send('PATCH', `/api/sandbox/todoist/tasks/${task.id}`, {
        email: owner,
        content: 'Pay the rent',
        dueDate: '2030-05-08',
      });
      expect((await read())[0]).toMatchObject({ id: task.id, due: { date: '2030-05-08', datetime: null } });

      await send('PATCH', `/api/sandbox/todoist/tasks/${task.id}`, { email: owner, content: 'Pay the rent' });
      expect((await read())[0]).toMatchObject({ id: task.id, due: null });
    });

    it('is refused with a time as well, or with a date that is not YYYY-MM-DD', async () => {
      const both = await send('POST', '/api/sandbox/todoist/tasks', {
        email: owner,
        content: 'Both',
        due: '2030-05-06T09:30:00.000Z',
        dueDate: '2030-05-06',
      });
      expectFieldIssue(both, 'dueDate', 'Please give either a due time or a due date, not both');
      const sloppy = await send('POST', '/api/sandbox/todoist/tasks', {
        email: owner,
        content: 'Sloppy',
        dueDate: '6 May 2030',
      });
      expectFieldIssue(sloppy, 'dueDate', 'Please choose a date (YYYY-MM-DD)');
      expect((await read()).map((t: { content: string }) => t.content)).not.toContain('Both');
    });
  });

  describe('Todoist labels', () => {
    const owner = 'label-owner@example.com';
    const read = async () => (await get(`/api/sandbox/todoist?${q({ email: owner })}`)).json();
    const labelNamed = async (name: string) =>
      (await read()).labels.find((label: { name: string }) => label.name === name);

    /** Labels are made in Todoist itself (here, through the emulator's control API). */
    const addLabels = async (...names: string[]) => {
      const seeded = await fetch(`${app.emulators?.todoist.origin}/_emulator/seed`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ users: [{ email: owner, labels: names.map((name) => ({ name })) }] }),
      });
      expect(seeded.status).toBe(200);
    };

    beforeAll(() => addLabels('30Minutes', 'Focus'));

    it('renames a label, and the task carrying it follows; deleting removes it from the task', async () => {
      await send('POST', '/api/sandbox/todoist/tasks', {
        email: owner,
        content: 'Plan the week',
        labels: ['30Minutes', 'Focus'],
      });
      const label = await labelNamed('30Minutes');
      expect(label).toEqual({ id: expect.any(String), name: '30Minutes' });

      const renamed = await send('PATCH', `/api/sandbox/todoist/labels/${label.id}`, {
        email: owner,
        name: ' 45Minutes ',
      });
      expect(renamed.statusCode).toBe(200);
      expect(await labelNamed('45Minutes')).toEqual({ id: label.id, name: '45Minutes' });
      expect((await read()).tasks[0]).toMatchObject({
        content: 'Plan the week',
        labels: ['45Minutes', 'Focus'],
      });

      const deleted = await send('DELETE', `/api/sandbox/todoist/labels/${label.id}?${q({ email: owner })}`);
      expect(deleted.statusCode).toBe(200);
      const after = await read();
      expect(after.labels.map((entry: { name: string }) => entry.name)).toEqual(['Focus']);
      expect(after.tasks[0]).toMatchObject({ content: 'Plan the week', labels: ['Focus'] });
    });

    it('refuses a name another label has, whatever its case, with a message naming the field', async () => {
      await addLabels('Deep work');
      const label = await labelNamed('Deep work');
      const taken = await send('PATCH', `/api/sandbox/todoist/labels/${label.id}`, {
        email: owner,
        name: 'focus',
      });
      expectFieldIssue(taken, 'name', 'There is already a label named “focus” in Todoist');
      expect(await labelNamed('Deep work')).toEqual(label);
    });

    it('checks the new name before asking Todoist', async () => {
      const { id } = await labelNamed('Focus');
      const url = `/api/sandbox/todoist/labels/${id}`;
      expectFieldIssue(
        await send('PATCH', url, { email: owner, name: '  ' }),
        'name',
        'Please enter a label name',
      );
      expectFieldIssue(
        await send('PATCH', url, { email: owner, name: 'x'.repeat(61) }),
        'name',
        'Please enter a label name of at most 60 characters',
      );
      expectFieldIssue(
        await send('PATCH', url, { email: owner, name: 'Two\nlines' }),
        'name',
        'A label name cannot contain control characters',
      );
      expect(await labelNamed('Focus')).toEqual({ id, name: 'Focus' });
    });

    it('reports a label Todoist no longer has as a 404 of the emulated Todoist', async () => {
      const response = await send('DELETE', `/api/sandbox/todoist/labels/gone?${q({ email: owner })}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toMatch(/emulated Todoist refused this/);
    });
  });

  it('keeps each e-mail address a separate Todoist account', async () => {
    await send('POST', '/api/sandbox/todoist/tasks', {
      email: 'someone-else@example.com',
      content: 'Theirs',
    });
    expect((await todoist()).tasks.map((t: { content: string }) => t.content)).not.toContain('Theirs');
  });

  it('adds, moves and deletes calendar events on the emulator', async () => {
    const calendar = (await get(`/api/sandbox/calendar?${q({ email })}`)).json();
    expect(calendar.calendars.find((c: { primary: boolean }) => c.primary)?.id).toBe(calendar.calendarId);
    const start = new Date(Date.now() + 3_600_000);
    start.setUTCMinutes(0, 0, 0);
    const end = new Date(start.getTime() + 1_800_000);
    const event = {
      email,
      calendarId: calendar.calendarId,
      summary: 'Planning',
      start: start.toISOString(),
      end: end.toISOString(),
    };
    expect((await send('POST', '/api/sandbox/calendar/events', event)).statusCode).toBe(200);

    const read = async () =>
      (await get(`/api/sandbox/calendar?${q({ email, calendarId: calendar.calendarId })}`)).json().events;
    const [created] = await read();
    expect(created).toMatchObject({ summary: 'Planning', allDay: false, recurring: false });
    expect(Date.parse(created.end) - Date.parse(created.start)).toBe(1_800_000);

    const later = new Date(start.getTime() + 7_200_000);
    await send('PATCH', `/api/sandbox/calendar/events/${created.id}`, {
      ...event,
      start: later.toISOString(),
      end: new Date(later.getTime() + 3_600_000).toISOString(),
    });
    const [moved] = await read();
    expect(Date.parse(moved.start)).toBe(later.getTime());

    await send(
      'DELETE',
      `/api/sandbox/calendar/events/${created.id}?${q({ email, calendarId: calendar.calendarId })}`,
    );
    expect(await read()).toEqual([]);
  });

  describe('an event made by Todoist’s own calendar sync', () => {
    const owner = 'todoist-integration@example.com';
    type StoredEvent = { id: string; data: { summary?: string; description?: string } };

    /** The descriptions the emulated Google Calendar keeps, by title (the console never shows them). */
    const descriptions = async () => {
      const state = await fetch(`${app.emulators?.googleCalendar.origin}/_emulator/state`).then((r) =>
        r.json(),
      );
      const account = state.accounts.find((entry: { email: string }) => entry.email === owner);
      const events: StoredEvent[] = account.calendars.flatMap((c: { events: StoredEvent[] }) => c.events);
      return new Map(events.map((event) => [event.data.summary, { id: event.id, ...event.data }]));
    };
    const newEvent = async (summary: string, extra: Record<string, unknown> = {}) => {
      const { calendarId } = (await get(`/api/sandbox/calendar?${q({ email: owner })}`)).json();
      const start = new Date(Date.now() + 3_600_000);
      start.setUTCMinutes(0, 0, 0);
      return {
        email: owner,
        calendarId,
        summary,
        start: start.toISOString(),
        end: new Date(start.getTime() + 1_800_000).toISOString(),
        ...extra,
      };
    };

    it('links its description to a Todoist task when asked, and only then', async () => {
      const marked = await newEvent('Dentist (from Todoist)', { fromTodoistSync: true });
      expect((await send('POST', '/api/sandbox/calendar/events', marked)).statusCode).toBe(200);
      const plain = await newEvent('Dentist', { fromTodoistSync: false });
      expect((await send('POST', '/api/sandbox/calendar/events', plain)).statusCode).toBe(200);
      const unsaid = await newEvent('Haircut');
      expect((await send('POST', '/api/sandbox/calendar/events', unsaid)).statusCode).toBe(200);

      const stored = await descriptions();
      const link = stored.get('Dentist (from Todoist)')?.description;
      expect(link).toMatch(/^https:\/\/app\.todoist\.com\/app\/task\/\d{8}$/);
      // The mark the sync judges events by (Todoist's own integration: never turned into a task).
      expect(otherSyncOf(link)).toBe('todoist');
      expect(stored.get('Dentist')?.description).toBeUndefined();
      expect(stored.get('Haircut')?.description).toBeUndefined();
      expect(otherSyncOf(stored.get('Dentist')?.description)).toBeNull();
    });

    it('keeps the link when the event is edited without asking again', async () => {
      const event = await newEvent('Checkup (from Todoist)', { fromTodoistSync: true });
      await send('POST', '/api/sandbox/calendar/events', event);
      const before = (await descriptions()).get('Checkup (from Todoist)');
      const later = new Date(Date.parse(event.start) + 7_200_000);
      const moved = await send('PATCH', `/api/sandbox/calendar/events/${before?.id}`, {
        ...event,
        fromTodoistSync: false,
        start: later.toISOString(),
        end: new Date(later.getTime() + 1_800_000).toISOString(),
      });
      expect(moved.statusCode).toBe(200);
      expect((await descriptions()).get('Checkup (from Todoist)')?.description).toBe(before?.description);
    });

    it('is refused on Microsoft 365, where Todoist’s integration does not write', async () => {
      const { calendarId } = (
        await get(`/api/sandbox/calendar?${q({ email: owner, provider: 'microsoft' })}`)
      ).json();
      const refused = await send('POST', '/api/sandbox/calendar/events', {
        ...(await newEvent('Dentist (from Todoist)', { fromTodoistSync: true })),
        provider: 'microsoft',
        calendarId,
      });
      expectFieldIssue(
        refused,
        'fromTodoistSync',
        'Todoist’s own calendar sync writes only to Google Calendar',
      );
    });
  });

  describe('on Microsoft 365', () => {
    const provider = 'microsoft';
    const readMicrosoft = async (params: Record<string, string> = {}) => {
      const response = await get(`/api/sandbox/calendar?${q({ email, provider, ...params })}`);
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    const nextHour = () => {
      const start = new Date(Date.now() + 3_600_000);
      start.setUTCMinutes(0, 0, 0);
      return start;
    };

    it('reads the calendars and picks the default one', async () => {
      const calendar = await readMicrosoft();
      expect(calendar.calendars.length).toBeGreaterThan(1);
      const primary = calendar.calendars.filter((c: { primary: boolean }) => c.primary);
      expect(primary).toHaveLength(1);
      expect(calendar.calendarId).toBe(primary[0].id);
      expect(calendar.events).toEqual([]);
      const other = calendar.calendars.find((c: { primary: boolean }) => !c.primary);
      expect((await readMicrosoft({ calendarId: other.id })).calendarId).toBe(other.id);
    });

    it('keeps Google Calendar and Microsoft 365 apart, and Google the default', async () => {
      const google = (await get(`/api/sandbox/calendar?${q({ email })}`)).json();
      const microsoft = await readMicrosoft();
      const ids = (calendar: { calendars: { id: string }[] }) => calendar.calendars.map((c) => c.id);
      expect(ids(google)).not.toContain(microsoft.calendarId);
      expect(ids(microsoft)).not.toContain(google.calendarId);
    });

    it('adds, moves, renames and deletes events through Graph', async () => {
      const { calendarId } = await readMicrosoft();
      const start = nextHour();
      const event = {
        email,
        provider,
        calendarId,
        summary: 'Review',
        start: start.toISOString(),
        end: new Date(start.getTime() + 1_800_000).toISOString(),
      };
      expect((await send('POST', '/api/sandbox/calendar/events', event)).statusCode).toBe(200);
      const read = async () => (await readMicrosoft({ calendarId })).events;
      const [created] = await read();
      expect(created).toMatchObject({ summary: 'Review', allDay: false, recurring: false });
      expect(Date.parse(created.start)).toBe(start.getTime());
      expect(Date.parse(created.end) - Date.parse(created.start)).toBe(1_800_000);

      const later = new Date(start.getTime() + 7_200_000);
      const moved = await send('PATCH', `/api/sandbox/calendar/events/${encodeURIComponent(created.id)}`, {
        ...event,
        summary: 'Review, moved',
        start: later.toISOString(),
        end: new Date(later.getTime() + 3_600_000).toISOString(),
      });
      expect(moved.statusCode).toBe(200);
      const [after] = await read();
      expect(after).toMatchObject({ id: created.id, summary: 'Review, moved' });
      expect(Date.parse(after.start)).toBe(later.getTime());
      expect(Date.parse(after.end)).toBe(later.getTime() + 3_600_000);

      const deleted = await send(
        'DELETE',
        `/api/sandbox/calendar/events/${encodeURIComponent(created.id)}?${q({ email, provider, calendarId })}`,
      );
      expect(deleted.statusCode).toBe(200);
      expect(await read()).toEqual([]);
    });

    it('lists the occurrences of a series, flagged recurring', async () => {
      const { calendarId } = await readMicrosoft();
      const token = await fetch(`${app.emulators?.microsoft.origin}/_emulator/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      }).then((response) => response.json());
      const start = nextHour();
      const wallClock = (ms: number) => ({
        dateTime: new Date(ms).toISOString().slice(0, 19),
        timeZone: 'UTC',
      });
      const created = await fetch(
        `${app.emulators?.microsoft.graphBaseUrl}/v1.0/me/calendars/${calendarId}/events`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            subject: 'Standup',
            start: wallClock(start.getTime()),
            end: wallClock(start.getTime() + 900_000),
            recurrence: {
              pattern: { type: 'daily', interval: 1 },
              range: {
                type: 'numbered',
                startDate: start.toISOString().slice(0, 10),
                numberOfOccurrences: 3,
              },
            },
          }),
        },
      );
      expect(created.status).toBe(201);
      const events = (await readMicrosoft({ calendarId })).events;
      expect(events.map((e: { summary: string; recurring: boolean }) => [e.summary, e.recurring])).toEqual([
        ['Standup', true],
        ['Standup', true],
        ['Standup', true],
      ]);
      expect(Date.parse(events[1].start) - Date.parse(events[0].start)).toBe(86_400_000);
      for (const occurrence of events) {
        const deleted = await send(
          'DELETE',
          `/api/sandbox/calendar/events/${encodeURIComponent(occurrence.id)}?${q({ email, provider, calendarId })}`,
        );
        expect(deleted.statusCode).toBe(200);
      }
      expect((await readMicrosoft({ calendarId })).events).toEqual([]);
    });

    it('answers bad input with a 400 naming the field', async () => {
      const { calendarId } = await readMicrosoft();
      const backwards = await send('POST', '/api/sandbox/calendar/events', {
        email,
        provider,
        calendarId,
        summary: 'Backwards',
        start: '2030-01-01T10:00:00Z',
        end: '2030-01-01T09:00:00Z',
      });
      expectFieldIssue(backwards, 'end', 'The end must be after the start');
      const untitled = await send('POST', '/api/sandbox/calendar/events', {
        email,
        provider,
        calendarId,
        summary: ' ',
        start: '2030-01-01T09:00:00Z',
        end: '2030-01-01T10:00:00Z',
      });
      expectFieldIssue(untitled, 'summary', 'Please enter a title');
      const unknown = await get(`/api/sandbox/calendar?${q({ email, provider: 'outlook' })}`);
      expectFieldIssue(unknown, 'provider', 'Please choose google or microsoft');
      expect((await readMicrosoft({ calendarId })).events).toEqual([]);
    });

    it('reports an event Graph does not have as a 404 naming Microsoft 365', async () => {
      const { calendarId } = await readMicrosoft();
      const response = await send(
        'DELETE',
        `/api/sandbox/calendar/events/AAMkADnothing=?${q({ email, provider, calendarId })}`,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toMatch(/emulated Microsoft 365/);
    });
  });

  it('answers bad input with a 400 naming the field, and changes nothing', async () => {
    const response = await send('POST', '/api/sandbox/todoist/tasks', { email, content: '   ' });
    expectFieldIssue(response, 'content', 'Please enter a task name');
    const backwards = await send('POST', '/api/sandbox/calendar/events', {
      email,
      calendarId: 'primary',
      summary: 'Backwards',
      start: '2030-01-01T10:00:00Z',
      end: '2030-01-01T09:00:00Z',
    });
    expectFieldIssue(backwards, 'end', 'The end must be after the start');
    expect((await todoist()).tasks).toEqual([]);
  });

  describe('the accounts the console opens on', () => {
    const accounts = async (cookies: Record<string, string> = {}) => {
      const response = await app.server.inject({ url: '/api/sandbox/accounts', cookies });
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    const signIn = async (signInEmail: string) => {
      const { sessionCookie } = await signInThroughEmulator(app.server, 'google', {
        email: signInEmail,
        name: 'Ada Visitor',
      });
      return { sid: sessionCookie?.value ?? '' };
    };

    it('are none for a visitor who is not signed in', async () => {
      expect(await accounts()).toEqual({ todoist: null, calendar: null, others: [] });
    });

    it('are none before anything is connected', async () => {
      expect(await accounts(await signIn('nothing-yet@example.com'))).toEqual({
        todoist: null,
        calendar: null,
        others: [],
      });
    });

    it('are the Todoist and Google Calendar accounts the user connected, whatever their sign-in', async () => {
      const cookies = await signIn('signs-in@example.com');
      await connectThroughEmulator(app.server, 'todoist', { email: 'Todo.Person@example.com' }, cookies);
      await connectThroughEmulator(app.server, 'google', { email: 'calendar.person@example.com' }, cookies);
      expect(await accounts(cookies)).toEqual({
        todoist: { email: 'todo.person@example.com' },
        calendar: { provider: 'google', email: 'calendar.person@example.com', calendarId: null },
        others: [],
      });

      const calendarId = (await app.server.inject({ url: '/api/current_user', cookies }))
        .json()
        .calendarSettings.calendars.find(
          (c: { name: string }) => c.name !== 'calendar.person@example.com',
        ).id;
      const chosen = await app.server.inject({
        method: 'PATCH',
        url: '/api/calendar/id',
        payload: { calendarId },
        cookies,
        headers: sameOrigin,
      });
      expect(chosen.statusCode).toBe(200);
      expect((await accounts(cookies)).calendar).toEqual({
        provider: 'google',
        email: 'calendar.person@example.com',
        calendarId,
      });
    });

    it('name Microsoft 365 when that is the connected calendar', async () => {
      const cookies = await signIn('outlook-user@example.com');
      await connectThroughEmulator(app.server, 'microsoft', { email: 'mailbox@example.com' }, cookies);
      expect(await accounts(cookies)).toEqual({
        todoist: null,
        calendar: { provider: 'microsoft', email: 'mailbox@example.com', calendarId: null },
        others: [],
      });
    });

    it('list the calendar accounts added beside the sync’s, and the console may read their calendars', async () => {
      const cookies = await signIn('several-sandbox@example.com');
      await connectThroughEmulator(app.server, 'google', { email: 'several-sandbox@example.com' }, cookies);
      await connectThroughEmulator(
        app.server,
        'microsoft',
        { email: 'several-sandbox-work@example.com', another: true },
        cookies,
      );
      expect(await accounts(cookies)).toEqual({
        todoist: null,
        calendar: { provider: 'google', email: 'several-sandbox@example.com', calendarId: null },
        others: [{ provider: 'microsoft', email: 'several-sandbox-work@example.com' }],
      });
      const read = await app.server.inject({
        url: `/api/sandbox/calendar?${new URLSearchParams({ provider: 'microsoft', email: 'several-sandbox-work@example.com' })}`,
        cookies,
      });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().calendars.length).toBeGreaterThan(0);
    });
  });

  describe('acts only on the signed-in user’s own emulated accounts', () => {
    const victim = 'sandbox-victim@example.com';
    const intruder = 'sandbox-intruder@example.com';
    const as = async (
      who: string,
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
      url: string,
      payload?: object,
    ) => app.server.inject({ method, url, payload, headers: sameOrigin, cookies: await signedInAs(who) });
    const expectRefused = (response: LightMyRequestResponse) => {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual({ error: 'forbidden', message: NOT_YOUR_SANDBOX_ACCOUNT });
    };
    const start = new Date(Date.now() + 3_600_000);
    start.setUTCMinutes(0, 0, 0);
    const eventOf = (address: string, calendarId: string, provider = 'google') => ({
      email: address,
      provider,
      calendarId,
      summary: 'Not yours',
      start: start.toISOString(),
      end: new Date(start.getTime() + 1_800_000).toISOString(),
    });

    it('asks a visitor who is not signed in to sign in, reading or changing', async () => {
      const read = await app.server.inject({ url: `/api/sandbox/todoist?${q({ email: victim })}` });
      expect(read.statusCode).toBe(401);
      const calendar = await app.server.inject({ url: `/api/sandbox/calendar?${q({ email: victim })}` });
      expect(calendar.statusCode).toBe(401);
      const write = await app.server.inject({
        method: 'POST',
        url: '/api/sandbox/todoist/tasks',
        payload: { email: victim, content: 'Anonymous' },
        headers: sameOrigin,
      });
      expect(write.statusCode).toBe(401);
    });

    it('refuses another person’s Todoist and calendar, and changes nothing there', async () => {
      await send('POST', '/api/sandbox/todoist/tasks', { email: victim, content: 'Private plans' });
      const [task] = (await get(`/api/sandbox/todoist?${q({ email: victim })}`)).json().tasks;
      const { calendarId } = (await get(`/api/sandbox/calendar?${q({ email: victim })}`)).json();
      expect(
        (await send('POST', '/api/sandbox/calendar/events', eventOf(victim, calendarId))).statusCode,
      ).toBe(200);
      const [event] = (await get(`/api/sandbox/calendar?${q({ email: victim, calendarId })}`)).json().events;

      const todoistUrl = '/api/sandbox/todoist';
      expectRefused(await as(intruder, 'GET', `${todoistUrl}?${q({ email: victim })}`));
      expectRefused(await as(intruder, 'POST', `${todoistUrl}/tasks`, { email: victim, content: 'Planted' }));
      expectRefused(
        await as(intruder, 'PATCH', `${todoistUrl}/tasks/${task.id}`, { email: victim, content: 'Changed' }),
      );
      expectRefused(await as(intruder, 'POST', `${todoistUrl}/tasks/${task.id}/close`, { email: victim }));
      expectRefused(await as(intruder, 'DELETE', `${todoistUrl}/tasks/${task.id}?${q({ email: victim })}`));
      expectRefused(
        await as(intruder, 'POST', `${todoistUrl}/projects`, { email: victim, name: 'Mine now' }),
      );
      expectRefused(await as(intruder, 'DELETE', `${todoistUrl}/labels/any?${q({ email: victim })}`));
      for (const provider of ['google', 'microsoft']) {
        expectRefused(await as(intruder, 'GET', `/api/sandbox/calendar?${q({ email: victim, provider })}`));
      }
      expectRefused(await as(intruder, 'POST', '/api/sandbox/calendar/events', eventOf(victim, calendarId)));
      expectRefused(
        await as(intruder, 'PATCH', `/api/sandbox/calendar/events/${event.id}`, eventOf(victim, calendarId)),
      );
      expectRefused(
        await as(
          intruder,
          'DELETE',
          `/api/sandbox/calendar/events/${event.id}?${q({ email: victim, calendarId })}`,
        ),
      );

      expect((await get(`/api/sandbox/todoist?${q({ email: victim })}`)).json()).toMatchObject({
        tasks: [{ id: task.id, content: 'Private plans' }],
        projects: [{ name: 'Inbox' }],
      });
      const after = (await get(`/api/sandbox/calendar?${q({ email: victim, calendarId })}`)).json();
      expect(after.events).toEqual([event]);
    });

    it('takes the accounts the user connected, on their own side, and the sign-in address in any case', async () => {
      const signInAddress = 'connects-others@example.com';
      const cookies = await signedInAs(signInAddress);
      await connectThroughEmulator(app.server, 'todoist', { email: 'todo.own@example.com' }, cookies);
      await connectThroughEmulator(app.server, 'microsoft', { email: 'mailbox.own@example.com' }, cookies);
      const read = (url: string) => as(signInAddress, 'GET', url);

      expect((await read(`/api/sandbox/todoist?${q({ email: 'todo.own@example.com' })}`)).statusCode).toBe(
        200,
      );
      const mailbox = { email: 'mailbox.own@example.com', provider: 'microsoft' };
      expect((await read(`/api/sandbox/calendar?${q(mailbox)}`)).statusCode).toBe(200);
      expect(
        (await read(`/api/sandbox/todoist?${q({ email: 'Connects-Others@Example.com' })}`)).statusCode,
      ).toBe(200);
      expect((await read(`/api/sandbox/calendar?${q({ email: signInAddress })}`)).statusCode).toBe(200);
      // An account connected on one side names no account of the user on another.
      expectRefused(await read(`/api/sandbox/todoist?${q({ email: 'mailbox.own@example.com' })}`));
      expectRefused(await read(`/api/sandbox/calendar?${q({ email: 'mailbox.own@example.com' })}`));
      expectRefused(
        await read(`/api/sandbox/calendar?${q({ email: 'todo.own@example.com', provider: 'microsoft' })}`),
      );
    });
  });

  it('refuses a cross-site change', async () => {
    const response = await app.server.inject({
      method: 'POST',
      url: '/api/sandbox/todoist/tasks',
      payload: { email, content: 'Forged' },
      headers: crossSite,
      cookies: await signedInAs(email),
    });
    expect(response.statusCode).toBe(403);
  });

  it('reports what the emulator does not have as a 404 with the reason, never a 5xx', async () => {
    const response = await send('POST', '/api/sandbox/todoist/tasks/does-not-exist/close', { email });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/emulated Todoist/);
  });
});

describe('sandbox console with real credentials', () => {
  const app = useTestApp({ env: { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' } });

  it('does not exist', async () => {
    expect(app().emulators).toBeNull();
    const response = await app().server.inject({ url: `/api/sandbox/todoist?${q({ email })}` });
    expect(response.statusCode).toBe(404);
  });
});
