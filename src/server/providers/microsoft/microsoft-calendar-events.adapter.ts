import type { Client, GraphRequest } from '@microsoft/microsoft-graph-client';
import type { z } from 'zod';
import type { MicrosoftConfig } from '#server/config.ts';
import {
  ProviderRequestError,
  ProviderUnauthorizedError,
} from '#server/domain/integrations/integration-providers.port.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import {
  type CalendarEvent,
  CalendarGoneError,
  type CalendarTarget,
  EventChangedError,
  SyncTokenExpiredError,
  type WatchChannel,
} from '#server/sync/calendar-target.port.ts';
import { deletedEvent } from '#server/sync/plan/snapshots.ts';
import { busyAcross } from './microsoft-busy-elsewhere.ts';
import {
  createKeyFilter,
  eventFields,
  needsFullRead,
  newEventFields,
  TASK_TAG_EXPANSION,
  timingOfRead,
  toCalendarEvent,
  transactionIdFor,
} from './microsoft-calendar-events.mapper.ts';
import {
  calendarAccessSchema,
  deltaPageSchema,
  eventPageSchema,
  type GraphEvent,
  graphEventSchema,
  subscriptionSchema,
  viewPageSchema,
} from './microsoft-calendar-events.schemas.ts';
import { deltaRequest, writeDeltaToken } from './microsoft-delta-token.ts';
import {
  calendarMissing,
  graphCode,
  graphFailure,
  graphStatus,
  syncGraphClient,
  withZoneFallback,
  writeDenied,
} from './microsoft-graph.client.ts';

/** Outlook allows 10,080 minutes now; older documentation says 4,230, which every tenant accepts. */
export const MAX_SUBSCRIPTION_MINUTES = 4230;
const PREFER = 'outlook.timezone="UTC"';
/** Outlook serves at most 4 concurrent requests per mailbox and app. */
const PARALLEL_READS = 4;
const MAX_PAGES = 500;

export type MicrosoftCalendarEventsOptions = {
  /** Per request (default 30 s); an answer that does not come is a failure, like a network error. */
  timeoutMs?: number;
  /** Delta page size asked for (default 100). */
  pageSize?: number;
};

/**
 * Microsoft 365 as the sync engine's calendar: calendarView delta for changes, events for writes,
 * subscriptions for push. Everything through the official Graph client; times read and written as
 * UTC instants (written in the user's zone when that is unambiguous).
 */
export function createMicrosoftCalendarEvents(
  config: MicrosoftConfig,
  clock: Clock,
  options: MicrosoftCalendarEventsOptions = {},
): CalendarTarget {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deltaPrefer = `${PREFER}, odata.maxpagesize=${options.pageSize ?? 100}`;
  const call = (client: Client, path: string): GraphRequest =>
    client.api(path).option('signal', AbortSignal.timeout(timeoutMs));
  const parse = <T>(schema: z.ZodType<T>, body: unknown, what: string): T => {
    const parsed = schema.safeParse(body);
    // The zod error would quote the answer (event titles): say only what was read.
    if (!parsed.success) throw new ProviderRequestError(`Microsoft's answer to ${what} is not as expected`);
    return parsed.data;
  };
  /** A subscription's expiry `ttlSeconds` from now, within what Outlook allows (a minute at least). */
  const expiryIn = (ttlSeconds: number) => {
    const minutes = Math.min(Math.max(ttlSeconds, 60) / 60, MAX_SUBSCRIPTION_MINUTES);
    return new Date(clock().getTime() + minutes * 60_000).toISOString();
  };
  const watchChannel = (body: unknown): WatchChannel => {
    const subscription = parse(subscriptionSchema, body, 'a subscription');
    return { id: subscription.id, resourceId: null, expiresAt: new Date(subscription.expirationDateTime) };
  };
  const calendarPath = (calendarId: string) => `/me/calendars/${encodeURIComponent(calendarId)}`;
  const eventPath = (calendarId: string, eventId: string) =>
    `${calendarPath(calendarId)}/events/${encodeURIComponent(eventId)}`;

  /**
   * Why Graph refused a write with `ErrorAccessDenied`, which it answers both where the account can
   * only read the calendar and for a grant without the permission (docs/provider-facts.md §9): the
   * calendar's `canEdit` tells them apart. Read only now: as gone for the sync, as Google's. Writable:
   * the grant lacks the permission, which only connecting again (a new consent) gives.
   */
  async function writeRefusal(client: Client, calendarId: string, what: string): Promise<Error> {
    let canEdit: boolean | undefined;
    try {
      const body = await call(client, calendarPath(calendarId)).select('canEdit').get();
      canEdit = parse(calendarAccessSchema, body, 'a calendar read').canEdit ?? undefined;
    } catch (error) {
      if (graphStatus(error) === 404) return new CalendarGoneError('The Microsoft calendar is gone');
      return graphFailure(error, 'read a calendar', clock());
    }
    if (canEdit === false)
      return new CalendarGoneError(`The account can no longer write to the Microsoft calendar (${what})`);
    return new ProviderUnauthorizedError(`Microsoft refused the grant's access (${what})`);
  }

  /** The whole event as it is now in the calendar; null once it is gone (or in another calendar). */
  async function fullEvent(client: Client, calendarId: string, id: string): Promise<GraphEvent | null> {
    try {
      const body = await call(client, eventPath(calendarId, id))
        .header('Prefer', PREFER)
        .expand(TASK_TAG_EXPANSION)
        .get();
      return parse(graphEventSchema, body, 'an event read');
    } catch (error) {
      if (graphStatus(error) === 404) return null;
      throw graphFailure(error, 'read an event', clock());
    }
  }

  /**
   * The event an earlier attempt at this create made, if any. Graph's transactionId dedupes a retry for
   * a few minutes only; a job retried later (after a crash, or a backoff) must find it itself.
   */
  async function createdBefore(
    client: Client,
    calendarId: string,
    transactionId: string,
  ): Promise<GraphEvent | undefined> {
    const page = await call(client, `${calendarPath(calendarId)}/events`)
      .header('Prefer', PREFER)
      .filter(createKeyFilter(transactionId))
      .top(1)
      .get();
    return parse(eventPageSchema, page, 'an event search').value[0];
  }

  async function removeEvent(client: Client, calendarId: string, eventId: string): Promise<void> {
    try {
      await call(client, eventPath(calendarId, eventId)).delete();
    } catch (error) {
      if (graphStatus(error) === 404) return;
      if (writeDenied(error)) throw await writeRefusal(client, calendarId, 'delete an event');
      throw graphFailure(error, 'delete an event', clock());
    }
  }

  /**
   * Delta items as events. Thin updates are read in full. Removals are checked too: delta reports an
   * event moved out of the window as deleted, and a deleted event ends its task (docs/product-rules.md §10), so only
   * an event that is really gone is reported deleted.
   */
  async function complete(client: Client, calendarId: string, items: GraphEvent[]): Promise<CalendarEvent[]> {
    // Replays and duplicates happen in delta: the last word on an id counts.
    const latest = new Map(items.map((item) => [item.id, item]));
    const toRead = [...latest.values()].filter((item) => item['@removed'] || needsFullRead(item));
    const read = new Map<string, GraphEvent | null>();
    for (let i = 0; i < toRead.length; i += PARALLEL_READS) {
      const batch = toRead.slice(i, i + PARALLEL_READS);
      const found = await Promise.all(batch.map((item) => fullEvent(client, calendarId, item.id)));
      for (const [index, item] of batch.entries()) read.set(item.id, found[index] ?? null);
    }
    return [...latest.values()].map((item) => {
      if (!read.has(item.id)) return toCalendarEvent(item);
      const full = read.get(item.id);
      return full ? toCalendarEvent(full) : deletedEvent(item.id);
    });
  }

  /** The calendar's events between two times, occurrences one by one (a calendar view, not a delta). */
  async function eventsBetween(accessToken: string, calendarId: string, from: Date, to: Date) {
    const client = syncGraphClient(config, accessToken);
    const items: GraphEvent[] = [];
    try {
      let request = call(client, `${calendarPath(calendarId)}/calendarView`).query({
        startDateTime: from.toISOString(),
        endDateTime: to.toISOString(),
      });
      for (let pages = 1; ; pages += 1) {
        const page = parse(
          viewPageSchema,
          await request.header('Prefer', deltaPrefer).get(),
          'a calendar view',
        );
        items.push(...page.value);
        const next = page['@odata.nextLink'];
        if (!next) break;
        if (pages >= MAX_PAGES) throw new ProviderRequestError('Microsoft calendar view never ends');
        request = call(client, next);
      }
    } catch (error) {
      if (error instanceof ProviderRequestError) throw error;
      if (graphStatus(error) === 404) throw new CalendarGoneError('The Microsoft calendar is gone');
      throw graphFailure(error, 'read a calendar view', clock());
    }
    return items.map(toCalendarEvent);
  }

  return {
    async changes(accessToken, calendarId, syncToken) {
      const client = syncGraphClient(config, accessToken);
      const start = deltaRequest(syncToken, config.graphUrl, clock());
      if (start.kind === 'stale') throw new SyncTokenExpiredError(start.reason);
      const items: GraphEvent[] = [];
      let deltaLink: string | undefined;
      try {
        let request =
          start.kind === 'first'
            ? call(client, `${calendarPath(calendarId)}/calendarView/delta`).query(start.window)
            : call(client, start.link);
        for (let pages = 1; ; pages += 1) {
          const page = parse(deltaPageSchema, await request.header('Prefer', deltaPrefer).get(), 'delta');
          items.push(...page.value);
          deltaLink = page['@odata.deltaLink'];
          const next = page['@odata.nextLink'];
          if (deltaLink || !next) break;
          if (pages >= MAX_PAGES) throw new ProviderRequestError('Microsoft delta never ends');
          request = call(client, next);
        }
      } catch (error) {
        const code = graphCode(error).toLowerCase();
        if (graphStatus(error) === 410 || code === 'syncstatenotfound' || code === 'resyncrequired') {
          throw new SyncTokenExpiredError('Microsoft refused the delta token');
        }
        if (graphStatus(error) === 404) throw new CalendarGoneError('The Microsoft calendar is gone');
        throw graphFailure(error, 'read calendar changes', clock());
      }
      if (!deltaLink) throw new ProviderRequestError('Microsoft delta ended without a deltaLink');
      return {
        events: await complete(client, calendarId, items),
        full: start.kind === 'first',
        nextToken: writeDeltaToken(deltaLink, start.windowStart),
      };
    },

    async create(accessToken, calendarId, clientKey, write, attempt = 'repeat') {
      const client = syncGraphClient(config, accessToken);
      const transactionId = transactionIdFor(clientKey, write.taskId);
      try {
        // Only a repeated attempt can have an earlier event to find; a first one spares the read.
        const earlier =
          attempt === 'repeat' ? await createdBefore(client, calendarId, transactionId) : undefined;
        if (earlier) return toCalendarEvent(earlier);
        const body = await withZoneFallback((zone) =>
          call(client, `${calendarPath(calendarId)}/events`)
            .header('Prefer', PREFER)
            .post(newEventFields(write, transactionId, zone)),
        );
        return toCalendarEvent(parse(graphEventSchema, body, 'an event create'));
      } catch (error) {
        if (graphStatus(error) === 404) throw new CalendarGoneError('The Microsoft calendar is gone');
        if (writeDenied(error)) throw await writeRefusal(client, calendarId, 'create an event');
        throw graphFailure(error, 'create an event', clock());
      }
    },

    async update(accessToken, calendarId, eventId, write, ifVersion) {
      const client = syncGraphClient(config, accessToken);
      const body = await withZoneFallback((zone) => {
        const request = call(client, eventPath(calendarId, eventId)).header('Prefer', PREFER);
        if (ifVersion) request.header('If-Match', `W/"${ifVersion}"`);
        return request.patch(eventFields(write, zone));
      }).catch(async (error: unknown) => {
        if (graphStatus(error) === 412)
          throw new EventChangedError('The event changed since we last read it');
        if (writeDenied(error)) throw await writeRefusal(client, calendarId, 'update an event');
        throw graphFailure(error, 'update an event', clock());
      });
      return toCalendarEvent(parse(graphEventSchema, body, 'an event update'));
    },

    eventsBetween,

    busyElsewhere: (accessToken, calendarIds, from, to) =>
      busyAcross(calendarIds, (calendarId) => eventsBetween(accessToken, calendarId, from, to)),

    remove: (accessToken, calendarId, eventId) =>
      removeEvent(syncGraphClient(config, accessToken), calendarId, eventId),

    async move(accessToken, { fromCalendarId, toCalendarId, eventId, clientKey }, look) {
      const client = syncGraphClient(config, accessToken);
      const transactionId = transactionIdFor(clientKey, look.taskId);
      const old = await fullEvent(client, fromCalendarId, eventId);
      let moved: CalendarEvent | null = null;
      try {
        const earlier = await createdBefore(client, toCalendarId, transactionId);
        moved = earlier ? toCalendarEvent(earlier) : null;
        if (!moved && old) {
          const event = toCalendarEvent(old);
          const timing = timingOfRead(event);
          if (!timing) return null;
          const write = { ...look, title: event.title, ...timing };
          const body = await withZoneFallback((zone) =>
            call(client, `${calendarPath(toCalendarId)}/events`)
              .header('Prefer', PREFER)
              .post({
                ...newEventFields(write, transactionId, zone),
                // An event the user made keeps its categories where it goes.
                ...(look.appearance ? {} : { categories: event.categories }),
              }),
          );
          moved = toCalendarEvent(parse(graphEventSchema, body, 'an event create'));
        }
      } catch (error) {
        if (graphStatus(error) === 404) throw new CalendarGoneError('The Microsoft calendar is gone');
        if (writeDenied(error)) throw await writeRefusal(client, toCalendarId, 'move an event');
        throw graphFailure(error, 'move an event', clock());
      }
      // Deleted only once its copy is there: a crash in between repeats the create, which finds the copy.
      if (old) await removeEvent(client, fromCalendarId, eventId);
      return moved;
    },

    async findCreated(accessToken, calendarId, clientKey, taskId) {
      const client = syncGraphClient(config, accessToken);
      try {
        const earlier = await createdBefore(client, calendarId, transactionIdFor(clientKey, taskId));
        return earlier ? toCalendarEvent(earlier) : null;
      } catch (error) {
        if (graphStatus(error) === 404) throw new CalendarGoneError('The Microsoft calendar is gone');
        throw graphFailure(error, 'look for an event', clock());
      }
    },

    async watch(accessToken, calendarId, channel) {
      if (channel.secret.length > 128)
        throw new ProviderRequestError('A Graph clientState is 128 characters at most');
      const client = syncGraphClient(config, accessToken);
      const lifecycle = new URL(channel.address);
      lifecycle.pathname = `${lifecycle.pathname.replace(/\/$/, '')}/lifecycle`;
      try {
        const body = await call(client, '/subscriptions').post({
          changeType: 'created,updated,deleted',
          notificationUrl: channel.address,
          lifecycleNotificationUrl: lifecycle.href,
          resource: `me/calendars/${calendarId}/events`,
          clientState: channel.secret,
          expirationDateTime: expiryIn(channel.ttlSeconds),
          latestSupportedTlsVersion: 'v1_2',
        });
        return watchChannel(body);
      } catch (error) {
        if (calendarMissing(error)) throw new CalendarGoneError('The Microsoft calendar is gone');
        throw graphFailure(error, 'subscribe to calendar changes', clock());
      }
    },

    // Renewing reauthorizes too (MS Learn, lifecycle notifications): the answer to reauthorizationRequired.
    async renewWatch(accessToken, channel, ttlSeconds) {
      const client = syncGraphClient(config, accessToken);
      try {
        const body = await call(client, `/subscriptions/${encodeURIComponent(channel.id)}`).patch({
          expirationDateTime: expiryIn(ttlSeconds),
        });
        return watchChannel(body);
      } catch (error) {
        if (graphStatus(error) === 404) return null;
        throw graphFailure(error, 'renew a subscription', clock());
      }
    },

    async stopWatch(accessToken, channel) {
      const client = syncGraphClient(config, accessToken);
      try {
        await call(client, `/subscriptions/${encodeURIComponent(channel.id)}`).delete();
      } catch (error) {
        if (graphStatus(error) === 404) return;
        throw graphFailure(error, 'end a subscription', clock());
      }
    },
  };
}
