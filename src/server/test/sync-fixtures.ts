import { TodoistApi } from '@doist/todoist-sdk';
import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { and, eq } from 'drizzle-orm';
import { OAuth2Client } from 'google-auth-library';
import { expect } from 'vitest';
import type { App } from '#server/app.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { createTokenCipher } from '#server/domain/integrations/token-cipher.ts';
import {
  addTimeboxes,
  emulatorControl,
  graphClient,
  type Send,
  seedTodoistUser,
  signInAndConnect,
} from './sync-user-setup.ts';
import { sameOrigin } from './test-app.ts';

export { emulatorControl };

const HOUR = 3600_000;

/** Tomorrow at `hour`:00 in Berlin, as Todoist's floating due and as the instant it means. */
export function tomorrowAt(hour: number) {
  return berlinAt(new Date(Date.now() + 24 * HOUR).toISOString().slice(0, 10), hour);
}

/**
 * `day` (YYYY-MM-DD) at `hour` in Berlin (10.5 is 10:30), as Todoist's floating due and as the instant
 * it means.
 */
export function berlinAt(day: string, hour: number) {
  const pad = (value: number) => String(value).padStart(2, '0');
  const whole = Math.floor(hour);
  const local = `${day}T${pad(whole)}:${pad(Math.round((hour - whole) * 60))}:00`;
  const guess = new Date(`${local}Z`);
  return { day, local, instant: new Date(guess.getTime() - berlinOffsetMs(guess)) };
}

function berlinOffsetMs(at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  return Number(/GMT([+-]\d+)/.exec(name ?? '')?.[1] ?? 0) * HOUR;
}

/** What a syncing user chooses besides the calendar: its colour (Google) or category (Microsoft), and on completion. */
type SyncSettings = { color?: string; category?: string; onComplete?: string };

/**
 * Todoist seeded (`seedTodoistUser`), signed in with Google and both accounts connected, with the
 * 30- and 60-minute timeboxes, the calendar `calendarId` (null: the first one the app lists) chosen
 * with `settings`, and sync switched on: what every syncing user starts from, whichever their calendar.
 */
async function startSyncing(
  app: App,
  email: string,
  calendar: 'google' | 'microsoft',
  calendarId: string | null,
  settings: SyncSettings,
) {
  const todoistOrigin = app.emulators?.todoist.origin ?? '';
  const seeded = await seedTodoistUser(todoistOrigin, email);
  const todoist = new TodoistApi(seeded.accessToken, { baseUrl: todoistOrigin });
  const cookies = await signInAndConnect(app, { email, name: 'Ada User' }, calendar);
  const send: Send = async (method, url, payload) => {
    const response = await app.server.inject({
      method,
      url,
      cookies,
      headers: sameOrigin,
      ...(payload === undefined ? {} : { payload }),
    });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  await addTimeboxes(send);
  const chosen: string =
    calendarId ?? (await send('GET', '/api/current_user')).calendarSettings.calendars[0].id;
  const user = await send('PATCH', '/api/calendar/id', { calendarId: chosen });
  if (settings.color) await send('PATCH', '/api/calendar/color', { color: settings.color });
  if (settings.category) await send('PATCH', '/api/calendar/category', { category: settings.category });
  if (settings.onComplete) await send('PATCH', '/api/settings/oncomplete', { setting: settings.onComplete });
  await send('PATCH', '/api/settings/onsyncactive', { setting: true });
  const userId: string = user.id;
  return {
    userId,
    cookies,
    todoist,
    /** Adds a task in the user's Todoist, due on `day` (YYYY-MM-DD) at `hour`:00 Berlin time. */
    addTask: (content: string, day: string, hour: number, labels?: string[]) =>
      todoist.addTask({ content, ...(labels && { labels }), dueString: `${day} at ${hour}:00` }),
    calendarId: chosen,
    send,
    run: () => app.sync.engine.run(userId),
  };
}

/** The user's own Google Calendar client for the account `email`, on the emulator at `origin`. */
export async function userGoogleCalendar(origin: string, email: string) {
  const token = await emulatorControl(origin, 'tokens', {
    email,
    scopes: ['https://www.googleapis.com/auth/calendar'],
  });
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: token.access_token });
  return calendar({ version: 'v3', auth, rootUrl: `${origin}/` });
}

/**
 * The user's own Graph client for the mailbox `email`: a request with an optional JSON body, answered
 * in UTC and text bodies; its JSON (null for 204), or an error unless it succeeds.
 */
export async function userGraph(microsoft: { origin: string; graphBaseUrl: string }, email: string) {
  const { access_token: token } = await emulatorControl(microsoft.origin, 'tokens', { email });
  return graphClient(microsoft.graphBaseUrl, token);
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
  const user = await startSyncing(app, email, 'google', email, settings);
  const google = await userGoogleCalendar(origins.google, email);
  const events = async (): Promise<calendar_v3.Schema$Event[]> =>
    (await google.events.list({ calendarId: email })).data.items ?? [];
  return {
    ...user,
    google,
    origins,
    events,
    /** The titles of the events in the chosen calendar, sorted, whatever order the calendar lists them in. */
    eventTitles: async () => (await events()).map((event) => event.summary ?? '').sort(),
    /** Adds an event to the chosen calendar, `minutes` long from `start`, as the user would in Google Calendar. */
    addEvent: (title: string, start: Date, minutes = 30) =>
      google.events.insert({
        calendarId: email,
        requestBody: { summary: title, ...googleSpan(start, minutes) },
      }),
    /** Moves an event to `start`, `minutes` long, as the user would in Google Calendar. */
    moveEvent: (eventId: string | null | undefined, start: Date, minutes: number) =>
      google.events.patch({
        calendarId: email,
        eventId: eventId ?? '',
        requestBody: googleSpan(start, minutes),
      }),
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

/** An event's start and end in a Google Calendar request body: from `start`, `minutes` long. */
export function googleSpan(start: Date, minutes: number) {
  return {
    start: { dateTime: start.toISOString() },
    end: { dateTime: new Date(start.getTime() + minutes * 60_000).toISOString() },
  };
}

/** An event's start and end in a Graph request body: from `start`, `minutes` long, in UTC. */
export function graphSpan(start: Date, minutes: number) {
  return {
    start: { dateTime: start.toISOString().slice(0, 19), timeZone: 'UTC' },
    end: {
      dateTime: new Date(start.getTime() + minutes * 60_000).toISOString().slice(0, 19),
      timeZone: 'UTC',
    },
  };
}

/** Like `syncingUser`, with Microsoft 365 as the calendar, and the user's own Graph client. */
export async function microsoftSyncingUser(
  app: App,
  email: string,
  settings: { onComplete?: string; category?: string } = {},
) {
  if (!app.emulators) throw new Error('the test app runs in sandbox mode');
  const microsoft = app.emulators.microsoft;
  const user = await startSyncing(app, email, 'microsoft', null, settings);
  const graph = await userGraph(microsoft, email);
  const calendarPath = `/me/calendars/${encodeURIComponent(user.calendarId)}`;
  const events = async (): Promise<GraphEventView[]> => (await graph('GET', `${calendarPath}/events`)).value;
  return {
    ...user,
    graph,
    calendarPath,
    events,
    /** The titles of the events in the chosen calendar, sorted, whatever order the calendar lists them in. */
    eventTitles: async () => (await events()).map((event) => event.subject).sort(),
    /** Adds an event to the chosen calendar, `minutes` long from `start`, as the user would in Outlook. */
    addEvent: (title: string, start: Date, minutes = 30) =>
      graph('POST', `${calendarPath}/events`, { subject: title, ...graphSpan(start, minutes) }),
    /** Moves an event to `start`, `minutes` long, as the user would in Outlook. */
    moveEvent: (eventId: string | null | undefined, start: Date, minutes: number) =>
      graph('PATCH', `/me/events/${eventId}`, graphSpan(start, minutes)),
  };
}

/** The access token the app itself (not the user's own client) holds for a provider of this user. */
export async function appAccessToken(
  app: App,
  userId: string,
  kind: 'todoist' | 'calendar',
): Promise<string> {
  const [row] = await app.database.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.userId, userId), eq(integrations.kind, kind), eq(integrations.position, 0)));
  if (!row) throw new Error(`no ${kind} integration`);
  return createTokenCipher(app.config.tokenKeys).decrypt(row.accessTokenEncrypted);
}

/**
 * A syncing user on each calendar the app syncs with, by name: the tests that hold for both loop over
 * it, using what both kinds of user have (`events`, `eventTitles`, `addEvent`, `moveEvent` …).
 */
export const SYNCING_USERS = { google: syncingUser, microsoft: microsoftSyncingUser };
