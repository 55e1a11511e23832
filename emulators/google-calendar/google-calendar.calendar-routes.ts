import type { FastifyInstance } from 'fastify';
import { callerFor } from './google-calendar.api-auth.ts';
import type { ChannelStore } from './google-calendar.channel-store.ts';
import { COLORS } from './google-calendar.colors.ts';
import { errors } from './google-calendar.errors.ts';
import { flag } from './google-calendar.event-query.ts';
import {
  toCalendarListEntry,
  toCalendarResource,
  toDeletedCalendarListEntry,
} from './google-calendar.mappers.ts';
import type { PageCursors } from './google-calendar.pages.ts';
import type { Push } from './google-calendar.push.ts';
import type { CalendarStore } from './google-calendar.store.ts';

/** What the Calendar API routes share. */
export type ApiContext = {
  store: CalendarStore;
  cursors: PageCursors<unknown>;
  channels: ChannelStore;
  push: Push;
  getOrigin: () => string;
  channelMaxLifetimeMs: number;
};

const DEFAULT_LIST_PAGE = 100;
const MAX_LIST_PAGE = 250;

/** calendarList.list/get, calendars.get and colors.get (the calendars' writes: calendar-write-routes). */
export function registerCalendarRoutes(app: FastifyInstance, context: ApiContext): void {
  const { store, cursors } = context;

  app.get('/users/me/calendarList', async (request) => {
    const caller = callerFor(request, 'calendarListRead');
    const query = request.query as Record<string, string | undefined>;
    const maxResults = Math.min(Number(query.maxResults ?? DEFAULT_LIST_PAGE), MAX_LIST_PAGE);
    if (!Number.isInteger(maxResults) || maxResults < 1)
      throw errors.invalid('Invalid value for: maxResults', 'maxResults');
    const showDeleted = flag(query, 'showDeleted');
    if (query.syncToken && showDeleted === false)
      throw errors.invalid('Sync token cannot be used with showDeleted=false.', 'showDeleted');
    const scope = `calendarList:${caller.email}`;
    let page: { cursor: ReturnType<typeof cursors.create>; offset: number };
    if (query.pageToken) {
      const resolved = cursors.resolve(query.pageToken, scope);
      if (!resolved) throw errors.invalid('Invalid page token value.', 'pageToken');
      page = resolved;
    } else {
      let since = 0;
      if (query.syncToken) {
        const seq = store.syncTokenSeq(query.syncToken, scope);
        if (seq === undefined) throw errors.fullSyncRequired();
        since = seq;
      }
      // An incremental sync always reports the calendars deleted since its token; a full list on request.
      const entries = calendarListSince(store, caller.email, since, Boolean(query.syncToken || showDeleted));
      page = { cursor: cursors.create(scope, entries, store.seq), offset: 0 };
    }
    const { items, ...tokens } = cursors.page(page.cursor, page.offset, maxResults, (seq) =>
      store.mintSyncToken(scope, seq),
    );
    return { kind: 'calendar#calendarList', etag: `"p3${store.seq.toString(36)}"`, ...tokens, items };
  });

  app.get('/users/me/calendarList/:calendarId', async (request) => {
    const caller = callerFor(request, 'calendarListRead');
    const calendar = store.calendarFor(caller.email, (request.params as { calendarId: string }).calendarId);
    if (!calendar) throw errors.notFound();
    return toCalendarListEntry(calendar);
  });

  app.get('/calendars/:calendarId', async (request) => {
    const caller = callerFor(request, 'eventsRead');
    const calendar = store.calendarFor(caller.email, (request.params as { calendarId: string }).calendarId);
    if (!calendar) throw errors.notFound();
    return toCalendarResource(calendar);
  });

  app.get('/colors', async (request) => {
    callerFor(request, 'anyCalendar');
    return COLORS;
  });
}

/** The account's calendar list entries added (or deleted, `withDeleted`) after change number `since`. */
function calendarListSince(store: CalendarStore, email: string, since: number, withDeleted: boolean) {
  const live = store
    .calendarsOf(email)
    .map((calendar) => ({ seq: calendar.seq, entry: toCalendarListEntry(calendar) }));
  const deleted = withDeleted
    ? store
        .removedCalendarsOf(email)
        .map((removed) => ({ seq: removed.seq, entry: toDeletedCalendarListEntry(removed) }))
    : [];
  return [...live, ...deleted]
    .filter(({ seq }) => seq > since)
    .sort((a, b) => a.seq - b.seq)
    .map(({ entry }) => entry);
}
