import { TodoistApi } from '@doist/todoist-sdk';
import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { OAuth2Client } from 'google-auth-library';
import { expect } from 'vitest';
import type { App } from '#server/app.ts';
import { connectThroughEmulator, signInThroughEmulator } from './sign-in.ts';
import { sameOrigin } from './test-app.ts';

const HOUR = 3600_000;

/** Tomorrow at `hour`:00 in Berlin, as Todoist's floating due and as the instant it means. */
export function tomorrowAt(hour: number) {
  return berlinAt(new Date(Date.now() + 24 * HOUR).toISOString().slice(0, 10), hour);
}

/** `day` (YYYY-MM-DD) at `hour`:00 in Berlin, as Todoist's floating due and as the instant it means. */
export function berlinAt(day: string, hour: number) {
  const local = `${day}T${String(hour).padStart(2, '0')}:00:00`;
  const guess = new Date(`${local}Z`);
  return { day, local, instant: new Date(guess.getTime() - berlinOffsetMs(guess)) };
}

function berlinOffsetMs(at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  return Number(/GMT([+-]\d+)/.exec(name ?? '')?.[1] ?? 0) * HOUR;
}

/** Calls an emulator's control route (`GET` without a body). */
export async function emulatorControl(origin: string, path: string, body?: unknown) {
  const response = await fetch(`${origin}/_emulator/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

export type SyncingUser = Awaited<ReturnType<typeof syncingUser>>;

/**
 * A signed-in user with Todoist (Berlin time) and Google Calendar connected through the emulators,
 * 30- and 60-minute timeboxes, the primary calendar chosen and sync switched on; with the user's own
 * Todoist and Google clients to act as they would.
 */
export async function syncingUser(
  app: App,
  email: string,
  settings: { color?: string; onComplete?: string } = {},
) {
  if (!app.emulators) throw new Error('the test app runs in sandbox mode');
  const origins = { todoist: app.emulators.todoist.origin, google: app.emulators.googleCalendar.origin };
  const seeded = await emulatorControl(origins.todoist, 'seed', {
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
  const { sessionCookie } = await signInThroughEmulator(app.server, 'google', { email, name: 'Ada User' });
  const cookies = { sid: sessionCookie?.value ?? '' };
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
  if (settings.onComplete) await send('PATCH', '/api/settings/oncomplete', { setting: settings.onComplete });
  await send('PATCH', '/api/settings/onsyncactive', { setting: true });
  const token = await emulatorControl(origins.google, 'tokens', {
    email,
    scopes: ['https://www.googleapis.com/auth/calendar'],
  });
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: token.access_token });
  const google = calendar({ version: 'v3', auth, rootUrl: `${origins.google}/` });
  const userId: string = user.id;
  return {
    userId,
    cookies,
    todoist,
    google,
    origins,
    calendarId: email,
    send,
    events: async (): Promise<calendar_v3.Schema$Event[]> =>
      (await google.events.list({ calendarId: email })).data.items ?? [],
    run: () => app.sync.engine.run(userId),
  };
}

/** Polls until `check` passes (the worker syncs in the background), or fails with its last error. */
export async function eventually(check: () => Promise<void>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

type GraphEventView = {
  id: string;
  subject: string;
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  categories?: string[];
  sensitivity?: string;
};

/** Like `syncingUser`, with Microsoft 365 as the calendar, and the user's own Graph client. */
export async function microsoftSyncingUser(app: App, email: string, settings: { onComplete?: string } = {}) {
  if (!app.emulators) throw new Error('the test app runs in sandbox mode');
  const microsoft = app.emulators.microsoft;
  const origins = { todoist: app.emulators.todoist.origin, microsoft: microsoft.origin };
  const seeded = await emulatorControl(origins.todoist, 'seed', {
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
  const { sessionCookie } = await signInThroughEmulator(app.server, 'google', { email, name: 'Ada User' });
  const cookies = { sid: sessionCookie?.value ?? '' };
  await connectThroughEmulator(app.server, 'todoist', { email }, cookies);
  await connectThroughEmulator(app.server, 'microsoft', { email }, cookies);
  const send = async (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: unknown) => {
    const response = await app.server.inject({
      method,
      url,
      cookies,
      headers: sameOrigin,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  await send('POST', '/api/timeboxsettings', { label: '30min', duration: 30 });
  await send('POST', '/api/timeboxsettings', { label: '1h', duration: 60 });
  const current = await send('GET', '/api/current_user');
  const calendarId: string = current.calendarSettings.calendars[0].id;
  const user = await send('PATCH', '/api/calendar/id', { calendarId });
  if (settings.onComplete) await send('PATCH', '/api/settings/oncomplete', { setting: settings.onComplete });
  await send('PATCH', '/api/settings/onsyncactive', { setting: true });
  const { access_token: token } = await emulatorControl(microsoft.origin, 'tokens', { email });
  const graph = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${microsoft.graphBaseUrl}/v1.0${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        prefer: 'outlook.timezone="UTC"',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
    return response.status === 204 ? null : response.json();
  };
  const calendarPath = `/me/calendars/${encodeURIComponent(calendarId)}`;
  const userId: string = user.id;
  return {
    userId,
    todoist,
    graph,
    calendarPath,
    events: async (): Promise<GraphEventView[]> => (await graph('GET', `${calendarPath}/events`)).value,
    run: () => app.sync.engine.run(userId),
  };
}
