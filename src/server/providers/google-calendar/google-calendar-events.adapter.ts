import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { OAuth2Client } from 'google-auth-library';
import type { GoogleCalendarConfig } from '#server/config.ts';
import {
  ProviderRequestError,
  ProviderUnauthorizedError,
} from '#server/domain/integrations/integration-providers.port.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import {
  type CalendarEvent,
  CalendarGoneError,
  type CalendarTarget,
  dayAfter,
  EventChangedError,
  type EventWrite,
  SyncTokenExpiredError,
} from '#server/sync/calendar-target.port.ts';
import { RateLimitedError } from '#server/sync/rate-limited-error.ts';
import {
  freeBusySchema,
  type GoogleEvent,
  googleChannelSchema,
  googleEventPageSchema,
  googleEventSchema,
} from './google-calendar.schemas.ts';
import { otherSyncOf } from './other-sync-marker.ts';

/** The private extended property that names the task an event mirrors (how we know our own events). */
export const TASK_TAG = 'timeboxerTaskId';
const PAGE_SIZE = 250;
/** A call that has not answered by then is abandoned, so a hanging provider cannot stall a user's sync. */
const REQUEST_TIMEOUT_MS = 30_000;
const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded']);

/** Google Calendar events for the sync engine, through @googleapis/calendar; real or emulated, by config. */
export function createGoogleCalendarEvents(
  config: GoogleCalendarConfig,
  clock: Clock,
  options: { timeoutMs?: number } = {},
): CalendarTarget {
  const call = <T>(what: string, work: () => Promise<T>) => callGoogle(what, work, clock);
  const api = (accessToken: string) => {
    const auth = new OAuth2Client({ clientId: config.clientId, clientSecret: config.clientSecret });
    auth.setCredentials({ access_token: accessToken });
    // No retries inside the SDK: the job queue retries with backoff and honours Retry-After.
    return calendar({
      version: 'v3',
      auth,
      rootUrl: config.apiUrl,
      retry: false,
      timeout: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
    });
  };
  /** The event, or null when it is not in the calendar (never was, deleted, or moved away). */
  const existingEvent = async (token: string, calendarId: string, eventId: string) => {
    try {
      const response = await api(token).events.get({ calendarId, eventId });
      const event = toCalendarEvent(googleEventSchema.parse(response.data));
      return event.deleted ? null : event;
    } catch (error) {
      const status = statusOf(error);
      if (status === 404 || status === 410) return null;
      throw error;
    }
  };

  return {
    changes: (token, calendarId, syncToken) =>
      call('read the calendar', async () => {
        const events: CalendarEvent[] = [];
        let pageToken: string | undefined;
        let nextToken: string | null | undefined;
        do {
          const response = await api(token).events.list({
            calendarId,
            maxResults: PAGE_SIZE,
            pageToken,
            ...(syncToken ? { syncToken } : { showDeleted: false }),
          });
          const page = googleEventPageSchema.parse(response.data);
          events.push(...page.items.map(toCalendarEvent));
          pageToken = page.nextPageToken ?? undefined;
          nextToken = page.nextSyncToken;
        } while (pageToken);
        if (!nextToken) throw new ProviderRequestError('Google answered without a sync token');
        return { events, full: !syncToken, nextToken };
      }),

    eventsBetween: (token, calendarId, from, to) =>
      call('read the calendar between two times', async () => {
        const events: CalendarEvent[] = [];
        let pageToken: string | undefined;
        do {
          const response = await api(token).events.list({
            calendarId,
            maxResults: PAGE_SIZE,
            pageToken,
            singleEvents: true,
            timeMin: from.toISOString(),
            timeMax: to.toISOString(),
            showDeleted: false,
          });
          const page = googleEventPageSchema.parse(response.data);
          events.push(...page.items.map(toCalendarEvent));
          pageToken = page.nextPageToken ?? undefined;
        } while (pageToken);
        return events;
      }),

    busyElsewhere: (token, calendarIds, from, to) =>
      call('read free/busy', async () => {
        if (calendarIds.length === 0) return [];
        const response = await api(token).freebusy.query({
          requestBody: {
            timeMin: from.toISOString(),
            timeMax: to.toISOString(),
            items: calendarIds.map((id) => ({ id })),
          },
        });
        const answer = freeBusySchema.parse(response.data);
        return Object.values(answer.calendars ?? {}).flatMap((calendar) =>
          (calendar.busy ?? []).map((span) => ({ start: new Date(span.start), end: new Date(span.end) })),
        );
      }),

    create: (token, calendarId, clientKey, write) =>
      call('create an event', async () => {
        try {
          const response = await api(token).events.insert({
            calendarId,
            requestBody: { id: clientKey, ...eventBody(write) },
          });
          return toCalendarEvent(googleEventSchema.parse(response.data));
        } catch (error) {
          // Our id exists: an earlier attempt got through although its answer was lost.
          if (statusOf(error) !== 409) throw error;
          const response = await api(token).events.get({ calendarId, eventId: clientKey });
          return toCalendarEvent(googleEventSchema.parse(response.data));
        }
      }),

    update: (token, calendarId, eventId, write, ifVersion) =>
      call('update an event', async () => {
        try {
          const response = await api(token).events.patch(
            { calendarId, eventId, requestBody: eventBody(write) },
            ifVersion ? { headers: { 'If-Match': ifVersion } } : {},
          );
          return toCalendarEvent(googleEventSchema.parse(response.data));
        } catch (error) {
          if (statusOf(error) === 412) throw new EventChangedError('The event changed since we last read it');
          throw error;
        }
      }),

    remove: (token, calendarId, eventId) =>
      call('delete an event', async () => {
        try {
          await api(token).events.delete({ calendarId, eventId });
        } catch (error) {
          const status = statusOf(error);
          if (status !== 404 && status !== 410) throw error;
        }
      }),

    move: (token, { fromCalendarId, toCalendarId, eventId }) =>
      call('move an event', async () => {
        try {
          const response = await api(token).events.move({
            calendarId: fromCalendarId,
            eventId,
            destination: toCalendarId,
          });
          return toCalendarEvent(googleEventSchema.parse(response.data));
        } catch (error) {
          const status = statusOf(error);
          if (status !== 404 && status !== 410) throw error;
        }
        // Not in the old calendar: an earlier attempt moved it (its answer lost), or it is gone.
        return existingEvent(token, toCalendarId, eventId);
      }),

    // A keyed create gave the event our key as its id.
    findCreated: (token, calendarId, clientKey) =>
      call('look for an event', () => existingEvent(token, calendarId, clientKey)),

    watch: (token, calendarId, channel) =>
      call('watch the calendar', async () => {
        const response = await api(token).events.watch({
          calendarId,
          requestBody: {
            id: channel.id,
            type: 'web_hook',
            address: channel.address,
            token: channel.secret,
            params: { ttl: String(channel.ttlSeconds) },
          },
        });
        const parsed = googleChannelSchema.parse(response.data);
        return {
          id: parsed.id,
          resourceId: parsed.resourceId,
          expiresAt: new Date(Number(parsed.expiration ?? clock().getTime() + channel.ttlSeconds * 1000)),
        };
      }),

    stopWatch: (token, channel) =>
      call('stop a channel', async () => {
        try {
          await api(token).channels.stop({
            requestBody: { id: channel.id, resourceId: channel.resourceId ?? '' },
          });
        } catch (error) {
          if (statusOf(error) !== 404) throw error;
        }
      }),
  };
}

/** A time, or a whole day (end exclusive); the other form is cleared, so a patch can switch between them. */
function timingOf(write: EventWrite): Pick<calendar_v3.Schema$Event, 'start' | 'end'> {
  if (write.date !== null) {
    return {
      start: { date: write.date, dateTime: null, timeZone: null },
      end: { date: dayAfter(write.date), dateTime: null, timeZone: null },
    };
  }
  return {
    start: { dateTime: write.start.toISOString(), timeZone: write.timeZone, date: null },
    end: { dateTime: write.end.toISOString(), timeZone: write.timeZone, date: null },
  };
}

function eventBody(write: EventWrite): calendar_v3.Schema$Event {
  const timing = { summary: write.title, ...timingOf(write) };
  // An event the user made keeps everything but its title and time (nothing they wrote is lost).
  if (!write.appearance) return timing;
  return {
    ...timing,
    // null clears a colour set before; the calendar's own colour shows then.
    colorId: write.color === '' ? null : write.color,
    visibility: write.private ? 'private' : 'default',
    description: write.description,
    reminders:
      write.reminderMinutes === null
        ? { useDefault: false, overrides: [] }
        : { useDefault: false, overrides: [{ method: 'popup', minutes: write.reminderMinutes }] },
    extendedProperties: { private: { [TASK_TAG]: write.taskId } },
  };
}

function toCalendarEvent(event: GoogleEvent): CalendarEvent {
  const start = event.start?.dateTime ? new Date(event.start.dateTime) : null;
  const end = event.end?.dateTime ? new Date(event.end.dateTime) : null;
  return {
    id: event.id,
    deleted: event.status === 'cancelled',
    title: event.summary ?? '',
    start,
    end,
    allDay: Boolean(event.start?.date),
    date: event.start?.date ?? null,
    busy: event.transparency !== 'transparent',
    recurring: Boolean(event.recurrence?.length || event.recurringEventId),
    color: event.colorId ?? null,
    categories: [],
    taskTag: event.extendedProperties?.private?.[TASK_TAG] ?? null,
    otherSync: otherSyncOf(event.description),
    version: event.etag ?? '',
    updatedAt: event.updated ? new Date(event.updated) : null,
  };
}

type GaxiosLike = {
  status?: number;
  response?: { status?: number; headers?: unknown; data?: unknown };
};

function statusOf(error: unknown): number | undefined {
  const e = error as GaxiosLike | null;
  return e?.response?.status ?? e?.status;
}

function reasonOf(error: unknown): string | undefined {
  const data = (error as GaxiosLike | null)?.response?.data as
    | { error?: { errors?: { reason?: string }[] } }
    | undefined;
  return data?.error?.errors?.[0]?.reason;
}

function retryAfterMs(error: unknown, now: number): number | null {
  const headers = (error as GaxiosLike | null)?.response?.headers;
  // gaxios answers with a fetch Headers object (of its own fetch, so not always this realm's class).
  const readable = headers as { get?: (name: string) => string | null } | Record<string, string> | undefined;
  const value =
    typeof readable?.get === 'function'
      ? readable.get('retry-after')
      : ((readable as Record<string, string> | undefined)?.['retry-after'] ?? null);
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Runs a call, turning the SDK's errors (which carry request headers) into the sync's own. */
async function callGoogle<T>(what: string, work: () => Promise<T>, clock: Clock): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderRequestError || error instanceof EventChangedError) throw error;
    const status = statusOf(error);
    const reason = reasonOf(error);
    if (status === 401) throw new ProviderUnauthorizedError(`Google refused the access token (${what})`);
    if (status === 410) throw new SyncTokenExpiredError('Google expired the sync token');
    if (status === 429 || (status === 403 && reason && RATE_LIMIT_REASONS.has(reason))) {
      throw new RateLimitedError(`Google rate limit (${what})`, retryAfterMs(error, clock().getTime()));
    }
    if (status === 404 && what === 'read the calendar')
      throw new CalendarGoneError('The calendar no longer exists');
    // Shared to read only now (provider-facts §9): as gone for the sync, until another one is chosen.
    if (status === 403 && reason === 'requiredAccessLevel')
      throw new CalendarGoneError(`The account can no longer write to the calendar (${what})`);
    const name = status === undefined ? `: ${(error as Error)?.name ?? 'error'}` : '';
    throw new ProviderRequestError(
      `Could not ${what}${reason ? ` [${reason.slice(0, 40)}]` : ''}${name}`,
      status,
      reason,
    );
  }
}
