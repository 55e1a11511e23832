import { calendar } from '@googleapis/calendar';
import { OAuth2Client } from 'google-auth-library';
import {
  TASK_TAG_EXPANSION,
  TASK_TAG_PROPERTY,
  taskIdFromTransactionId,
} from '#server/providers/microsoft/microsoft-calendar-events.mapper.ts';
import { graphClient } from '#server/test/sync-user-setup.ts';
import type { CalendarKind } from './options.ts';

/**
 * The user's own calendar client (not the app's), Google Calendar or Microsoft Graph, against the
 * emulator: what the benchmark needs of it, events as instants, and every request counted.
 */

/** Requests the benchmark itself sent to each emulator, to tell them apart from the app's. */
export const ownRequests = { todoist: 0, calendar: 0 };

/** An event as the benchmark looks at it: start and end as ISO instants, the task the app tagged it with. */
export type EventView = {
  id: string;
  start: string | null;
  end: string | null;
  /** The task the app made it for (its tag); null for the user's own events. */
  taskId: string | null;
  cancelled: boolean;
};

export type UserCalendarClient = {
  /** Every event in the calendar (one or more list calls). */
  events(): Promise<EventView[]>;
  /** Moves the event to `start` (epoch ms), `minutes` long. */
  move(eventId: string, start: number, minutes: number): Promise<void>;
};

/** The tag our events carry (the Google adapter's TASK_TAG). */
const GOOGLE_TASK_TAG = 'timeboxerTaskId';

/** The user's own Google Calendar client (not the app's), against the emulator. */
export function userCalendar(origin: string, token: string) {
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: token });
  return calendar({ version: 'v3', auth, rootUrl: `${origin}/`, retry: false });
}

/** The user's own Graph client for their mailbox (`origin`: the Graph emulator's base URL). */
export const userGraph = (origin: string, token: string) => graphClient(origin, token);

/** An event's start and end in a Graph request body: from `start` (epoch ms), `minutes` long, in UTC. */
export function graphSpan(start: number, minutes: number) {
  const at = (time: number) => ({ dateTime: new Date(time).toISOString().slice(0, 19), timeZone: 'UTC' });
  return { start: at(start), end: at(start + minutes * 60_000) };
}

/** A Graph date-time in UTC (`2030-05-01T10:00:00.0000000`) as an ISO instant. */
const graphInstant = (value: { dateTime?: string } | undefined) =>
  value?.dateTime ? new Date(`${value.dateTime.slice(0, 19)}Z`).toISOString() : null;

type GraphEvent = {
  id: string;
  isCancelled?: boolean;
  transactionId?: string | null;
  start?: { dateTime?: string };
  end?: { dateTime?: string };
  singleValueExtendedProperties?: { id: string; value?: string | null }[];
};

export function userCalendarClient(
  kind: CalendarKind,
  origin: string,
  token: string,
  calendarId: string,
): UserCalendarClient {
  if (kind === 'microsoft') {
    const graph = userGraph(origin, token);
    const tag = TASK_TAG_PROPERTY.toLowerCase();
    return {
      async events() {
        const items: GraphEvent[] = [];
        let next: string | undefined =
          `/me/calendars/${encodeURIComponent(calendarId)}/events?$top=1000&$expand=${encodeURIComponent(TASK_TAG_EXPANSION)}`;
        while (next) {
          ownRequests.calendar += 1;
          const page: { value: GraphEvent[]; '@odata.nextLink'?: string } = await graph('GET', next);
          items.push(...page.value);
          next = page['@odata.nextLink'];
        }
        return items.map((event) => ({
          id: event.id,
          start: graphInstant(event.start),
          end: graphInstant(event.end),
          taskId:
            event.singleValueExtendedProperties?.find((entry) => entry.id.toLowerCase() === tag)?.value ??
            taskIdFromTransactionId(event.transactionId),
          cancelled: event.isCancelled === true,
        }));
      },
      async move(eventId, start, minutes) {
        ownRequests.calendar += 1;
        await graph('PATCH', `/me/events/${encodeURIComponent(eventId)}`, graphSpan(start, minutes));
      },
    };
  }
  const google = userCalendar(origin, token);
  return {
    async events() {
      const items: EventView[] = [];
      let pageToken: string | undefined;
      do {
        ownRequests.calendar += 1;
        const page = await google.events.list({
          calendarId,
          maxResults: 2500,
          ...(pageToken ? { pageToken } : {}),
        });
        for (const event of page.data.items ?? []) {
          items.push({
            id: event.id ?? '',
            start: event.start?.dateTime ?? null,
            end: event.end?.dateTime ?? null,
            taskId: event.extendedProperties?.private?.[GOOGLE_TASK_TAG] ?? null,
            cancelled: event.status === 'cancelled',
          });
        }
        pageToken = page.data.nextPageToken ?? undefined;
      } while (pageToken);
      return items;
    },
    async move(eventId, start, minutes) {
      ownRequests.calendar += 1;
      await google.events.patch({
        calendarId,
        eventId,
        requestBody: {
          start: { dateTime: new Date(start).toISOString() },
          end: { dateTime: new Date(start + minutes * 60_000).toISOString() },
        },
      });
    },
  };
}
