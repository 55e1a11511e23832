import { Client } from '@microsoft/microsoft-graph-client';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { SandboxEvent, SandboxEventInput } from '#shared/api/sandbox.schema.ts';
import { calendarTokens, calendarWindow, type SandboxCalendarService } from './sandbox-emulator-access.ts';

export type MicrosoftEndpoints = {
  /** The emulator's origin, for its control routes. */
  origin: string;
  /** Where the Graph SDK sends its requests (it adds `/v1.0`). */
  graphBaseUrl: string;
};

type GraphPage<T> = { value: T[]; '@odata.nextLink'?: string };
type GraphCalendar = { id: string; name: string; isDefaultCalendar?: boolean };
type GraphDateTime = { dateTime: string; timeZone: string };
type GraphEvent = {
  id: string;
  subject?: string | null;
  start: GraphDateTime;
  end: GraphDateTime;
  isAllDay?: boolean;
  type?: 'singleInstance' | 'occurrence' | 'exception' | 'seriesMaster';
  seriesMasterId?: string | null;
};

/** Every time in an answer in UTC, whatever the mailbox's time zone. */
const PREFER_UTC = 'outlook.timezone="UTC"';
const PAGE_SIZE = 100;

/** A person using the emulated Microsoft 365 calendar, through the official Graph SDK. */
export function createSandboxMicrosoftCalendar(
  endpoints: MicrosoftEndpoints,
  clock: Clock,
): SandboxCalendarService {
  const token = calendarTokens(endpoints.origin, clock);
  const graph = (email: string) =>
    Client.initWithMiddleware({
      authProvider: { getAccessToken: () => token(email) },
      baseUrl: endpoints.graphBaseUrl,
      // The SDK attaches the token only to Microsoft's hosts and these.
      customHosts: new Set([new URL(endpoints.graphBaseUrl).hostname]),
    });
  const calendarPath = (calendarId: string) => `/me/calendars/${encodeURIComponent(calendarId)}`;

  return {
    async read(email, calendarId) {
      const client = graph(email);
      const calendars = (
        await allPages<GraphCalendar>(client, await client.api('/me/calendars').top(PAGE_SIZE).get())
      ).map((entry) => ({ id: entry.id, name: entry.name, primary: entry.isDefaultCalendar === true }));
      const chosen = calendars.find((entry) => entry.id === calendarId) ?? calendars.find((c) => c.primary);
      if (!chosen) return { calendars, calendarId: '', events: [] };
      const window = calendarWindow(clock());
      const first = await client
        .api(`${calendarPath(chosen.id)}/calendarView`)
        .header('Prefer', PREFER_UTC)
        .query({ startDateTime: window.from, endDateTime: window.to })
        .top(PAGE_SIZE)
        .get();
      const events = (await allPages<GraphEvent>(client, first)).map(toSandboxEvent);
      events.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
      return { calendars, calendarId: chosen.id, events };
    },

    async add(input) {
      await graph(input.email)
        .api(`${calendarPath(input.calendarId)}/events`)
        .post(eventBody(input));
    },

    async update(id, input) {
      await graph(input.email)
        .api(`${calendarPath(input.calendarId)}/events/${encodeURIComponent(id)}`)
        .patch(eventBody(input));
    },

    async remove({ email, calendarId, id }) {
      await graph(email)
        .api(`${calendarPath(calendarId)}/events/${encodeURIComponent(id)}`)
        .delete();
    },
  };
}

/** Follows `@odata.nextLink` to the end of a collection. */
async function allPages<T>(client: Client, first: GraphPage<T>): Promise<T[]> {
  const items = [...first.value];
  let next = first['@odata.nextLink'];
  while (next) {
    const page: GraphPage<T> = await client.api(next).header('Prefer', PREFER_UTC).get();
    items.push(...page.value);
    next = page['@odata.nextLink'];
  }
  return items;
}

function toSandboxEvent(event: GraphEvent): SandboxEvent {
  const allDay = event.isAllDay === true;
  // All-day events float: keep their dates, as Google's `date` does (the end date is exclusive).
  const time = (value: GraphDateTime) => (allDay ? value.dateTime.slice(0, 10) : utcInstant(value));
  return {
    id: event.id,
    summary: event.subject ?? '',
    start: time(event.start),
    end: time(event.end),
    allDay,
    recurring: event.type !== undefined && event.type !== 'singleInstance',
  };
}

/** Graph's wall-clock `2030-05-06T09:00:00.0000000` in UTC (asked for with `Prefer`) as an ISO instant. */
function utcInstant({ dateTime }: GraphDateTime): string {
  return new Date(`${dateTime.slice(0, 19)}Z`).toISOString();
}

function eventBody(input: SandboxEventInput) {
  const wallClock = (iso: string) => ({
    dateTime: new Date(iso).toISOString().slice(0, 23),
    timeZone: 'UTC',
  });
  return { subject: input.summary, start: wallClock(input.start), end: wallClock(input.end) };
}
