import { TodoistApi } from '@doist/todoist-sdk';
import { calendar as googleCalendarApi } from '@googleapis/calendar';
import { eq } from 'drizzle-orm';
import { OAuth2Client } from 'google-auth-library';
import { expect } from 'vitest';
import type { App } from '#server/app.ts';
import { syncStates } from '#server/db/schema/sync.tables.ts';
import { TASK_TAG } from '#server/providers/google-calendar/google-calendar-events.adapter.ts';
import {
  TASK_TAG_EXPANSION,
  TASK_TAG_PROPERTY,
  taskIdFromTransactionId,
} from '#server/providers/microsoft/microsoft-calendar-events.mapper.ts';
import { CONNECT_PATHS } from '#shared/api/auth.schema.ts';
import { connectThroughEmulator } from './sign-in.ts';
import { emulatorControl, graphSpan, type SyncingUser, syncingUser } from './sync-fixtures.ts';
import type { Style } from './sync-model.ts';
import { addTimeboxes, type Send, seedTodoistUser, signInAndConnect } from './sync-user-setup.ts';
import { sameOrigin } from './test-app.ts';

/**
 * The user's calendar in the model-based sync tests, Google Calendar or Microsoft 365, acted on the
 * way the user's own client would, and read back in one shape for the comparison with the model.
 *
 * In scope is what the sync takes from the calendar: on Google, events of the chosen colour (at first
 * the default: events without a colour); on Microsoft, events of the chosen category. A foreign event
 * (another colour, another category) must stay untouched. The model knows two of each (`Style`).
 */
export type CalendarKind = 'google' | 'microsoft';

export type SeenEvent = {
  id: string;
  title: string;
  start: Date;
  end: Date;
  /** Google colour id or Microsoft categories (comma-separated); null for none. */
  style: string | null;
  /** The event's description (Google) or text body (Microsoft); null for none. */
  description: string | null;
  /**
   * The task id the sync tagged the event with (Google: the private extended property; Microsoft: the
   * transaction id or the extended property), as the sync reads it; null on an event it did not tag.
   */
  taskTag: string | null;
};

/** One calendar of the account with its events. */
export type SeenCalendar = { id: string; name: string; events: SeenEvent[] };

export type ModelCalendar = {
  kind: CalendarKind;
  /** The account's e-mail (the account the user connected in the app). */
  email: string;
  /** The emulator's origin, for its control routes (faults, notifications). */
  origin: string;
  /**
   * The two calendars of the account the user chooses between in the app: the one chosen at the start
   * (Google: the primary; Microsoft: the first), and another one (Google: 'Work'; Microsoft: the second).
   */
  choices: readonly [string, string];
  /** The calendar chosen in the app now: where the user adds events, and what `list` reads. */
  chosen: string;
  add(title: string, start: Date, minutes: number, style: Style): Promise<string>;
  move(id: string, start: Date, minutes: number): Promise<void>;
  retitle(id: string, title: string): Promise<void>;
  delete(id: string): Promise<void>;
  /** The events of the chosen calendar. */
  list(): Promise<SeenEvent[]>;
  /** Every calendar of the account (the two choices and any other) with its events. */
  listAll(): Promise<SeenCalendar[]>;
  /** What `list` shows as the colour or category `style`. */
  styleOf(style: Style): string | null;
  /** Chooses in the app the colour (Google) or category (Microsoft) whose events the sync takes. */
  chooseFilter(style: Style): Promise<void>;
  /** The provider forgets the app's incremental read position (Google 410, Graph delta token gone). */
  expireSyncState(): Promise<void>;
  /** The push channel (Google channel, Graph subscription) goes quiet before its time. */
  expireChannel(): Promise<void>;
};

/** The Google colours of the two styles: the default (no colour), chosen at first, and another one. */
const COLOURS = ['', '5'] as const;
/** The Microsoft categories of the two styles: the one chosen at first, and another one. */
const CATEGORIES = ['Blue category', 'Red category'] as const;

export type ModelUser = {
  userId: string;
  /** The user's Todoist account (and first calendar account). */
  email: string;
  todoist: SyncingUser['todoist'];
  todoistOrigin: string;
  send: SyncingUser['send'];
  /** A DELETE of the signed-in user (the app's `DELETE` routes); fails unless it answers 200. */
  remove(url: string): Promise<unknown>;
  /** The calendar account connected now, through the user's own client (replaced by `connectCalendar`). */
  calendar: ModelCalendar;
  /** Removes the calendar integration on the dashboard (the app keeps the links and switches sync off). */
  disconnectCalendar(): Promise<void>;
  /** Connects the same calendar account again through the app and the provider's consent page. */
  reconnectCalendar(): Promise<void>;
  /**
   * Connects another calendar account (`email`, of `kind`) once the integration was removed, and
   * chooses its first calendar and the first style on the dashboard; `calendar` becomes its client.
   */
  connectCalendar(kind: CalendarKind, email: string): Promise<void>;
};

/** The ids of the calendars the app lists for the user, and the one named `name` (or the second). */
async function calendarChoices(send: Send, first: string, name: string | null) {
  const current = await send('GET', '/api/current_user');
  const calendars: { id: string; name: string }[] = current.calendarSettings.calendars;
  const other = name === null ? calendars[1] : calendars.find((entry) => entry.name === name);
  if (!other || other.id === first) throw new Error(`the account has no second calendar to choose`);
  return [first, other.id] as const;
}

/**
 * The user's session around the calendar integration: removing it, connecting the same account again,
 * or another one (`cookies`: the session; `calendar`: the client of the account connected first).
 */
function account(
  app: App,
  base: {
    userId: string;
    email: string;
    todoist: SyncingUser['todoist'];
    todoistOrigin: string;
    send: Send;
  },
  cookies: Record<string, string>,
  calendar: ModelCalendar,
): ModelUser {
  const user: ModelUser = {
    ...base,
    calendar,
    async remove(url) {
      const response = await app.server.inject({ method: 'DELETE', url, cookies, headers: sameOrigin });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response.json();
    },
    async disconnectCalendar() {
      const current = await base.send('GET', `${CONNECT_PATHS[user.calendar.kind]}/revoke`);
      expect(current.calendarSettings.connected, 'the calendar is no longer connected').toBe(false);
      expect(current.syncActive, 'sync is off once the calendar is removed').toBe(false);
    },
    async reconnectCalendar() {
      const { kind, email } = user.calendar;
      const { location } = await connectThroughEmulator(app.server, kind, { email }, cookies);
      expect(location, 'the calendar connects again').toBe(`/dashboard?connected=${kind}`);
    },
    async connectCalendar(kind, email) {
      const { location } = await connectThroughEmulator(app.server, kind, { email }, cookies);
      expect(location, 'another calendar account connects').toBe(`/dashboard?connected=${kind}`);
      const next =
        kind === 'google'
          ? await googleCalendar(app, email, base.send)
          : await microsoftCalendar(app, email, base.send, base.userId);
      await base.send('PATCH', '/api/calendar/id', { calendarId: next.choices[0] });
      await next.chooseFilter(0);
      user.calendar = next;
    },
  };
  return user;
}

const span = (start: Date, minutes: number) => ({
  start: { dateTime: start.toISOString() },
  end: { dateTime: new Date(start.getTime() + minutes * 60_000).toISOString() },
});

/** The user's own Google Calendar client for the account `email`, as the model reads and edits it. */
async function googleCalendar(app: App, email: string, send: Send): Promise<ModelCalendar> {
  const origin = app.emulators?.googleCalendar.origin ?? '';
  const token = await emulatorControl(origin, 'tokens', {
    email,
    scopes: ['https://www.googleapis.com/auth/calendar'],
  });
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: token.access_token });
  const google = googleCalendarApi({ version: 'v3', auth, rootUrl: `${origin}/` });
  const patch = async (eventId: string, requestBody: object) => {
    await google.events.patch({ calendarId: calendar.chosen, eventId, requestBody });
  };
  const events = async (calendarId: string): Promise<SeenEvent[]> => {
    const items = (await google.events.list({ calendarId, maxResults: 2500 })).data.items ?? [];
    return items.map((event) => ({
      id: event.id ?? '',
      title: event.summary ?? '',
      start: new Date(event.start?.dateTime ?? 0),
      end: new Date(event.end?.dateTime ?? 0),
      style: event.colorId ?? null,
      description: event.description ?? null,
      taskTag: event.extendedProperties?.private?.[TASK_TAG] ?? null,
    }));
  };
  // The primary calendar's id is the account's e-mail.
  const choices = await calendarChoices(send, email, 'Work');
  const calendar: ModelCalendar = {
    kind: 'google',
    email,
    origin,
    choices,
    chosen: choices[0],
    async add(title, start, minutes, style) {
      const created = await google.events.insert({
        calendarId: calendar.chosen,
        requestBody: {
          summary: title,
          ...span(start, minutes),
          ...(style ? { colorId: COLOURS[style] } : {}),
        },
      });
      return created.data.id ?? '';
    },
    move: (id, start, minutes) => patch(id, span(start, minutes)),
    retitle: (id, title) => patch(id, { summary: title }),
    async delete(id) {
      await google.events.delete({ calendarId: calendar.chosen, eventId: id });
    },
    list: () => events(calendar.chosen),
    async listAll() {
      const calendars = (await google.calendarList.list()).data.items ?? [];
      return Promise.all(
        calendars.map(async (entry) => ({
          id: entry.id ?? '',
          name: entry.summary ?? '',
          events: await events(entry.id ?? ''),
        })),
      );
    },
    styleOf: (style) => COLOURS[style] || null,
    async chooseFilter(style) {
      await send('PATCH', '/api/calendar/color', { color: COLOURS[style] });
    },
    async expireSyncState() {
      await emulatorControl(
        calendar.origin,
        `calendars/${encodeURIComponent(calendar.chosen)}/expire-sync-tokens`,
        {},
      );
    },
    async expireChannel() {
      await emulatorControl(calendar.origin, 'channels/expire', { calendarId: calendar.chosen });
    },
  };
  return calendar;
}

async function googleUser(app: App, email: string, onComplete: string): Promise<ModelUser> {
  const user = await syncingUser(app, email, { onComplete });
  const { userId, todoist, send, cookies } = user;
  const calendar = await googleCalendar(app, email, send);
  const base = { userId, email, todoist, todoistOrigin: user.origins.todoist, send };
  return account(app, base, cookies, calendar);
}

type GraphEvent = {
  id: string;
  subject: string;
  start: { dateTime: string };
  end: { dateTime: string };
  categories?: string[];
  body?: { content?: string };
  transactionId?: string | null;
  singleValueExtendedProperties?: { id: string; value: string }[];
};

/** Graph's UTC date-time (`2026-11-27T09:00:00.0000000`, as `Prefer: outlook.timezone="UTC"` asks). */
const utc = (dateTime: string) => new Date(`${dateTime.slice(0, 19)}Z`);

/**
 * As `microsoftSyncingUser` in `sync-fixtures.ts` (Todoist seeded, signed in, both accounts connected,
 * the timeboxes, the first calendar and the chosen category, sync on), keeping the session's cookies
 * to connect the calendar again.
 */
async function microsoftSyncing(app: App, email: string, onComplete: string) {
  const microsoft = app.emulators?.microsoft;
  if (!microsoft) throw new Error('the test app runs in sandbox mode');
  const todoistOrigin = app.emulators?.todoist.origin ?? '';
  const seeded = await seedTodoistUser(todoistOrigin, email);
  const todoist = new TodoistApi(seeded.accessToken, { baseUrl: todoistOrigin });
  const cookies = await signInAndConnect(app, { email, name: 'Ada User' }, 'microsoft');
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
  const current = await send('GET', '/api/current_user');
  const calendarId: string = current.calendarSettings.calendars[0].id;
  const user = await send('PATCH', '/api/calendar/id', { calendarId });
  await send('PATCH', '/api/calendar/category', { category: CATEGORIES[0] });
  await send('PATCH', '/api/settings/oncomplete', { setting: onComplete });
  await send('PATCH', '/api/settings/onsyncactive', { setting: true });
  const userId: string = user.id;
  return { userId, todoist, todoistOrigin, send, cookies };
}

const calendarPath = (id: string) => `/me/calendars/${encodeURIComponent(id)}`;
const WANTED_TAG = TASK_TAG_PROPERTY.toLowerCase();

/** The user's own Graph client for the mailbox `email`, as the model reads and edits it. */
async function microsoftCalendar(
  app: App,
  email: string,
  send: Send,
  userId: string,
): Promise<ModelCalendar> {
  const microsoft = app.emulators?.microsoft;
  if (!microsoft) throw new Error('the test app runs in sandbox mode');
  const { origin } = microsoft;
  const { access_token: token } = await emulatorControl(origin, 'tokens', { email });
  // biome-ignore lint/suspicious/noExplicitAny: each Graph route answers its own JSON
  const graph = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${microsoft.graphBaseUrl}/v1.0${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        prefer: 'outlook.timezone="UTC", outlook.body-content-type="text"',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
    return response.status === 204 ? null : response.json();
  };
  const events = async (calendarId: string): Promise<SeenEvent[]> => {
    const expand = encodeURIComponent(TASK_TAG_EXPANSION);
    const page: GraphEvent[] = (
      await graph('GET', `${calendarPath(calendarId)}/events?$top=1000&$expand=${expand}`)
    ).value;
    return page.map((event) => ({
      id: event.id,
      title: event.subject,
      start: utc(event.start.dateTime),
      end: utc(event.end.dateTime),
      style: event.categories?.length ? event.categories.join(',') : null,
      description: event.body?.content ? event.body.content : null,
      taskTag:
        taskIdFromTransactionId(event.transactionId) ??
        (event.singleValueExtendedProperties?.find((entry) => entry.id.toLowerCase() === WANTED_TAG)?.value ||
          null),
    }));
  };
  // The first calendar the app lists is the mailbox's default one.
  const listed: { id: string }[] = (await send('GET', '/api/current_user')).calendarSettings.calendars;
  const choices = await calendarChoices(send, listed[0]?.id ?? '', null);
  const calendar: ModelCalendar = {
    kind: 'microsoft',
    email,
    origin,
    choices,
    chosen: choices[0],
    async add(title, start, minutes, style) {
      const created = await graph('POST', `${calendarPath(calendar.chosen)}/events`, {
        subject: title,
        ...graphSpan(start, minutes),
        categories: [CATEGORIES[style]],
      });
      return created.id;
    },
    async move(id, start, minutes) {
      await graph('PATCH', `/me/events/${id}`, graphSpan(start, minutes));
    },
    async retitle(id, title) {
      await graph('PATCH', `/me/events/${id}`, { subject: title });
    },
    async delete(id) {
      await graph('DELETE', `/me/events/${id}`);
    },
    list: () => events(calendar.chosen),
    async listAll() {
      const calendars: { id: string; name: string }[] = (await graph('GET', '/me/calendars')).value;
      return Promise.all(
        calendars.map(async (entry) => ({ id: entry.id, name: entry.name, events: await events(entry.id) })),
      );
    },
    styleOf: (style) => CATEGORIES[style],
    async chooseFilter(style) {
      await send('PATCH', '/api/calendar/category', { category: CATEGORIES[style] });
    },
    async expireSyncState() {
      await emulatorControl(origin, 'delta/expire', { email });
    },
    async expireChannel() {
      const [state] = await app.database.db
        .select({ channelId: syncStates.channelId })
        .from(syncStates)
        .where(eq(syncStates.userId, userId));
      // Silent expiry: the subscription is gone, and no lifecycle notice says so (404: already gone).
      if (!state?.channelId) return;
      const response = await fetch(`${origin}/_emulator/subscriptions/${state.channelId}/expire`, {
        method: 'POST',
      });
      if (!response.ok && response.status !== 404)
        throw new Error(`subscription expiry answered ${response.status}`);
    },
  };
  return calendar;
}

async function microsoftUser(app: App, email: string, onComplete: string): Promise<ModelUser> {
  const { cookies, ...base } = await microsoftSyncing(app, email, onComplete);
  const calendar = await microsoftCalendar(app, email, base.send, base.userId);
  return account(app, { ...base, email }, cookies, calendar);
}

/** A signed-in user syncing Todoist with the given calendar, as in `syncingUser`. */
export const modelUser = (app: App, kind: CalendarKind, email: string, onComplete: string) =>
  kind === 'google' ? googleUser(app, email, onComplete) : microsoftUser(app, email, onComplete);
