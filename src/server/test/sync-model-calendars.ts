import { eq } from 'drizzle-orm';
import type { App } from '#server/app.ts';
import { syncStates } from '#server/db/schema/sync.tables.ts';
import { TASK_TAG } from '#server/providers/google-calendar/google-calendar-events.adapter.ts';
import {
  TASK_TAG_EXPANSION,
  TASK_TAG_PROPERTY,
  taskIdFromTransactionId,
} from '#server/providers/microsoft/microsoft-calendar-events.mapper.ts';
import { dayAfter } from '#server/sync/calendar-target.port.ts';
import { emulatorControl, googleSpan, graphSpan, userGoogleCalendar, userGraph } from './sync-fixtures.ts';
import type { Style } from './sync-model.ts';
import type { Send } from './sync-user-setup.ts';

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
  /** An all-day event's day (`YYYY-MM-DD`); null for a timed one. */
  date: string | null;
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
  /** Makes the event an all-day one on `day` (`YYYY-MM-DD`). */
  makeAllDay(id: string, day: string): Promise<void>;
  retitle(id: string, title: string): Promise<void>;
  delete(id: string): Promise<void>;
  /**
   * Moves the event out of the chosen calendar into `ELSEWHERE` (made on first use), as the user would in
   * Google Calendar or Outlook (the emulators' user-side move: docs/provider-facts.md §11); and, with
   * `back`, back into the chosen calendar at once. The event's id in the chosen calendar after it (Google
   * keeps it; Outlook gives a new one), or null when it stays away.
   */
  moveAway(id: string, back: boolean): Promise<string | null>;
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
  /**
   * The calendar's owner lets the account write to one of its calendars, or only read it (Google's
   * `accessRole`, Graph's `canEdit`): for the app and for the user's own client alike.
   */
  setWriteAccess(calendarId: string, writable: boolean): Promise<void>;
  /**
   * Graph sends a lifecycle event for the app's subscription (docs/provider-facts.md §3): after
   * `reauthorizationRequired` its change notifications pause until the app renews it; after
   * `subscriptionRemoved` it is gone. Google has no lifecycle events: its channel goes quiet instead.
   * The subscription the event was sent for (the app held one Graph still had), else null.
   */
  lifecycle(event: LifecycleEvent): Promise<string | null>;
  /**
   * Whether the app got a lifecycle event for this subscription: false when every one sent was lost on
   * the way (a notification fault of the emulator, armed by any user of it), so the app was never told.
   */
  lifecycleHeard(subscriptionId: string): Promise<boolean>;
  /**
   * What is wrong with the app's push channel after a lifecycle event it was told of: null when it is
   * live and delivering (Graph: not paused waiting for a reauthorization).
   */
  pushTrouble(): Promise<string | null>;
};

export type LifecycleEvent = 'reauthorizationRequired' | 'subscriptionRemoved' | 'missed';

/** The calendar of the account the sync never reads, where the user moves events away to. */
export const ELSEWHERE = 'Elsewhere';

/** The Google colours of the two styles: the default (no colour), chosen at first, and another one. */
const COLOURS = ['', '5'] as const;
/** The Microsoft categories of the two styles: the one chosen at first, and another one. */
export const CATEGORIES = ['Blue category', 'Red category'] as const;

/** The ids of the calendars the app lists for the user, and the one named `name` (or the second). */
async function calendarChoices(send: Send, first: string, name: string | null) {
  const current = await send('GET', '/api/current_user');
  const calendars: { id: string; name: string }[] = current.calendarSettings.calendars;
  const other = name === null ? calendars[1] : calendars.find((entry) => entry.name === name);
  if (!other || other.id === first) throw new Error(`the account has no second calendar to choose`);
  return [first, other.id] as const;
}

/** The user's own Google Calendar client for the account `email`, as the model reads and edits it. */
async function googleCalendar(app: App, email: string, send: Send): Promise<ModelCalendar> {
  const origin = app.emulators?.googleCalendar.origin ?? '';
  const google = await userGoogleCalendar(origin, email);
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
      date: event.start?.date ?? null,
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
          ...googleSpan(start, minutes),
          ...(style ? { colorId: COLOURS[style] } : {}),
        },
      });
      return created.data.id ?? '';
    },
    move: (id, start, minutes) => patch(id, googleSpan(start, minutes)),
    makeAllDay: (id, day) => patch(id, { start: { date: day }, end: { date: dayAfter(day) } }),
    retitle: (id, title) => patch(id, { summary: title }),
    async delete(id) {
      await google.events.delete({ calendarId: calendar.chosen, eventId: id });
    },
    async moveAway(id, back) {
      const listed = (await google.calendarList.list()).data.items ?? [];
      const elsewhere =
        listed.find((entry) => entry.summary === ELSEWHERE)?.id ??
        (await google.calendars.insert({ requestBody: { summary: ELSEWHERE } })).data.id ??
        '';
      const move = (from: string, to: string) =>
        emulatorControl(origin, `calendars/${encodeURIComponent(from)}/events/${id}/move`, {
          destination: to,
        });
      await move(calendar.chosen, elsewhere);
      if (!back) return null;
      await move(elsewhere, calendar.chosen);
      return id;
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
    async setWriteAccess(calendarId, writable) {
      await emulatorControl(origin, `calendars/${encodeURIComponent(calendarId)}/access`, {
        accessRole: writable ? 'owner' : 'reader',
      });
    },
    async lifecycle() {
      await calendar.expireChannel();
      return null;
    },
    lifecycleHeard: async () => false,
    // A channel gone quiet is found only at its stated expiry (Google tells no one), so not checked.
    async pushTrouble() {
      return null;
    },
  };
  return calendar;
}

type GraphEvent = {
  id: string;
  subject: string;
  isAllDay?: boolean;
  start: { dateTime: string };
  end: { dateTime: string };
  categories?: string[];
  body?: { content?: string };
  transactionId?: string | null;
  singleValueExtendedProperties?: { id: string; value: string }[];
};

/** Graph's UTC date-time (`2026-11-27T09:00:00.0000000`, as `Prefer: outlook.timezone="UTC"` asks). */
const utc = (dateTime: string) => new Date(`${dateTime.slice(0, 19)}Z`);

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
  const graph = await userGraph(microsoft, email);
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
      date: event.isAllDay ? event.start.dateTime.slice(0, 10) : null,
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
  /** The Graph subscription the app holds for the user now (null: none). */
  const appChannel = async () => {
    const [state] = await app.database.db
      .select({ channelId: syncStates.channelId })
      .from(syncStates)
      .where(eq(syncStates.userId, userId));
    return state?.channelId ?? null;
  };
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
      // Dragged to a time, an all-day event stops being one (Graph refuses a time on an all-day event).
      await graph('PATCH', `/me/events/${id}`, { ...graphSpan(start, minutes), isAllDay: false });
    },
    async makeAllDay(id, day) {
      const midnight = (date: string) => ({ dateTime: `${date}T00:00:00`, timeZone: 'Europe/Berlin' });
      await graph('PATCH', `/me/events/${id}`, {
        isAllDay: true,
        start: midnight(day),
        end: midnight(dayAfter(day)),
      });
    },
    async retitle(id, title) {
      await graph('PATCH', `/me/events/${id}`, { subject: title });
    },
    async delete(id) {
      await graph('DELETE', `/me/events/${id}`);
    },
    async moveAway(id, back) {
      const listed: { id: string; name: string }[] = (await graph('GET', '/me/calendars')).value;
      const elsewhere =
        listed.find((entry) => entry.name === ELSEWHERE)?.id ??
        (await graph('POST', '/me/calendars', { name: ELSEWHERE })).id;
      const move = async (eventId: string, to: string): Promise<string> =>
        (await emulatorControl(origin, `events/${eventId}/move`, { destinationId: to })).id;
      const away = await move(id, elsewhere);
      return back ? move(away, calendar.chosen) : null;
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
      const channelId = await appChannel();
      // Silent expiry: the subscription is gone, and no lifecycle notice says so (404: already gone).
      if (!channelId) return;
      const response = await fetch(`${origin}/_emulator/subscriptions/${channelId}/expire`, {
        method: 'POST',
      });
      if (!response.ok && response.status !== 404)
        throw new Error(`subscription expiry answered ${response.status}`);
    },
    async setWriteAccess(calendarId, writable) {
      await emulatorControl(origin, `calendars/${encodeURIComponent(calendarId)}/access`, {
        canEdit: writable,
      });
    },
    async lifecycle(event) {
      const channelId = await appChannel();
      if (!channelId) return null;
      const response = await fetch(`${origin}/_emulator/subscriptions/${channelId}/lifecycle`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lifecycleEvent: event }),
      });
      // 404: the subscription is gone already (expired, or a renewal replaced it meanwhile).
      if (!response.ok && response.status !== 404)
        throw new Error(`the lifecycle event answered ${response.status}`);
      return response.ok ? channelId : null;
    },
    async lifecycleHeard(subscriptionId) {
      const state = await (await fetch(`${origin}/_emulator/state`)).json();
      return (state.notifications as { body: string; status: number | string }[]).some(
        (delivery) =>
          typeof delivery.status === 'number' &&
          delivery.status >= 200 &&
          delivery.status < 300 &&
          delivery.body.includes('"lifecycleEvent"') &&
          delivery.body.includes(subscriptionId),
      );
    },
    async pushTrouble() {
      const channelId = await appChannel();
      if (!channelId) return 'the app has no subscription';
      const state = await (await fetch(`${origin}/_emulator/state`)).json();
      const subscription = (
        state.subscriptions as { id: string; expired: boolean; reauthorizationRequired: boolean }[]
      ).find((each) => each.id === channelId);
      if (!subscription || subscription.expired) return `its subscription ${channelId} is gone`;
      if (subscription.reauthorizationRequired)
        return `its subscription ${channelId} waits for a reauthorization`;
      return null;
    },
  };
  return calendar;
}

/**
 * The user's own client of the calendar account `email` of `kind`, as the model reads and edits it
 * (`send`: the signed-in user's requests to the app; `userId`: theirs).
 */
export const calendarClient = (app: App, kind: CalendarKind, email: string, send: Send, userId: string) =>
  kind === 'google' ? googleCalendar(app, email, send) : microsoftCalendar(app, email, send, userId);
