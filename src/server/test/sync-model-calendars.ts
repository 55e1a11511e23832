import { eq } from 'drizzle-orm';
import type { App } from '#server/app.ts';
import { syncStates } from '#server/db/schema/sync.tables.ts';
import {
  emulatorControl,
  graphSpan,
  microsoftSyncingUser,
  type SyncingUser,
  syncingUser,
} from './sync-fixtures.ts';

/**
 * The user's calendar in the model-based sync tests, Google Calendar or Microsoft 365, acted on the
 * way the user's own client would, and read back in one shape for the comparison with the model.
 *
 * In scope is what the sync takes from the calendar: on Google, events without a colour (the user's
 * colour setting is the default); on Microsoft, events of the chosen category. A foreign event (another
 * colour, another category) must stay untouched.
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
};

export type ModelCalendar = {
  kind: CalendarKind;
  /** The emulator's origin, for its control routes (faults, notifications). */
  origin: string;
  add(title: string, start: Date, minutes: number, foreign: boolean): Promise<string>;
  move(id: string, start: Date, minutes: number): Promise<void>;
  retitle(id: string, title: string): Promise<void>;
  delete(id: string): Promise<void>;
  list(): Promise<SeenEvent[]>;
  /** What `list` shows as the style of an event the sync takes (false) or must leave alone (true). */
  styleOf(foreign: boolean): string | null;
  /** The provider forgets the app's incremental read position (Google 410, Graph delta token gone). */
  expireSyncState(): Promise<void>;
  /** The push channel (Google channel, Graph subscription) goes quiet before its time. */
  expireChannel(): Promise<void>;
};

/** A Google colour the sync does not take: events of it are out of scope and must stay untouched. */
const FOREIGN_COLOUR = '5';
/** The Microsoft user's chosen category, and another one the sync must not take. */
const CHOSEN_CATEGORY = 'Blue category';
const FOREIGN_CATEGORY = 'Red category';

export type ModelUser = {
  userId: string;
  todoist: SyncingUser['todoist'];
  todoistOrigin: string;
  send: SyncingUser['send'];
  calendar: ModelCalendar;
};

const span = (start: Date, minutes: number) => ({
  start: { dateTime: start.toISOString() },
  end: { dateTime: new Date(start.getTime() + minutes * 60_000).toISOString() },
});

async function googleUser(app: App, email: string, onComplete: string): Promise<ModelUser> {
  const user = await syncingUser(app, email, { onComplete });
  const { google, calendarId } = user;
  const patch = async (eventId: string, requestBody: object) => {
    await google.events.patch({ calendarId, eventId, requestBody });
  };
  const calendar: ModelCalendar = {
    kind: 'google',
    origin: user.origins.google,
    async add(title, start, minutes, foreign) {
      const created = await google.events.insert({
        calendarId,
        requestBody: {
          summary: title,
          ...span(start, minutes),
          ...(foreign ? { colorId: FOREIGN_COLOUR } : {}),
        },
      });
      return created.data.id ?? '';
    },
    async move(id, start, minutes) {
      await user.moveEvent(id, start, minutes);
    },
    retitle: (id, title) => patch(id, { summary: title }),
    async delete(id) {
      await google.events.delete({ calendarId, eventId: id });
    },
    async list() {
      const items = (await google.events.list({ calendarId, maxResults: 2500 })).data.items ?? [];
      return items.map((event) => ({
        id: event.id ?? '',
        title: event.summary ?? '',
        start: new Date(event.start?.dateTime ?? 0),
        end: new Date(event.end?.dateTime ?? 0),
        style: event.colorId ?? null,
        description: event.description ?? null,
      }));
    },
    styleOf: (foreign) => (foreign ? FOREIGN_COLOUR : null),
    async expireSyncState() {
      await emulatorControl(
        calendar.origin,
        `calendars/${encodeURIComponent(calendarId)}/expire-sync-tokens`,
        {},
      );
    },
    async expireChannel() {
      await emulatorControl(calendar.origin, 'channels/expire', { calendarId });
    },
  };
  const { userId, todoist, send } = user;
  return { userId, todoist, todoistOrigin: user.origins.todoist, send, calendar };
}

type GraphEvent = {
  id: string;
  subject: string;
  start: { dateTime: string };
  end: { dateTime: string };
  categories?: string[];
  body?: { content?: string };
};

/** Graph's UTC date-time (`2026-11-27T09:00:00.0000000`, as `Prefer: outlook.timezone="UTC"` asks). */
const utc = (dateTime: string) => new Date(`${dateTime.slice(0, 19)}Z`);

async function microsoftUser(app: App, email: string, onComplete: string): Promise<ModelUser> {
  const user = await microsoftSyncingUser(app, email, { onComplete, category: CHOSEN_CATEGORY });
  const { graph, calendarPath } = user;
  const origin = app.emulators?.microsoft.origin ?? '';
  const calendar: ModelCalendar = {
    kind: 'microsoft',
    origin,
    async add(title, start, minutes, foreign) {
      const created = await graph('POST', `${calendarPath}/events`, {
        subject: title,
        ...graphSpan(start, minutes),
        categories: [foreign ? FOREIGN_CATEGORY : CHOSEN_CATEGORY],
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
    async list() {
      const events: GraphEvent[] = (await graph('GET', `${calendarPath}/events?$top=1000`)).value;
      return events.map((event) => ({
        id: event.id,
        title: event.subject,
        start: utc(event.start.dateTime),
        end: utc(event.end.dateTime),
        style: event.categories?.length ? event.categories.join(',') : null,
        description: event.body?.content ? event.body.content : null,
      }));
    },
    styleOf: (foreign) => (foreign ? FOREIGN_CATEGORY : CHOSEN_CATEGORY),
    async expireSyncState() {
      await emulatorControl(origin, 'delta/expire', { email });
    },
    async expireChannel() {
      const [state] = await app.database.db
        .select({ channelId: syncStates.channelId })
        .from(syncStates)
        .where(eq(syncStates.userId, user.userId));
      // Silent expiry: the subscription is gone, and no lifecycle notice says so (404: already gone).
      if (!state?.channelId) return;
      const response = await fetch(`${origin}/_emulator/subscriptions/${state.channelId}/expire`, {
        method: 'POST',
      });
      if (!response.ok && response.status !== 404)
        throw new Error(`subscription expiry answered ${response.status}`);
    },
  };
  const { userId, todoist, send } = user;
  return { userId, todoist, todoistOrigin: app.emulators?.todoist.origin ?? '', send, calendar };
}

/** A signed-in user syncing Todoist with the given calendar, as in `syncingUser`. */
export const modelUser = (app: App, kind: CalendarKind, email: string, onComplete: string) =>
  kind === 'google' ? googleUser(app, email, onComplete) : microsoftUser(app, email, onComplete);
