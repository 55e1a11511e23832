import type { FastifyInstance } from 'fastify';
import { callerFor } from './google-calendar.api-auth.ts';
import type { ApiContext } from './google-calendar.calendar-routes.ts';
import { errors } from './google-calendar.errors.ts';
import {
  parseListQuery,
  type Selected,
  selectChangedSince,
  selectFull,
} from './google-calendar.event-query.ts';
import { toWireEvent, toWireTombstone } from './google-calendar.mappers.ts';
import type { Cursor } from './google-calendar.pages.ts';

/** events.list: full listings with filters, paging, and incremental sync with sync tokens (410 when expired). */
export function registerEventListRoutes(app: FastifyInstance, context: ApiContext): void {
  const { store, cursors } = context;

  app.get('/calendars/:calendarId/events', async (request) => {
    const caller = callerFor(request, 'eventsRead');
    const calendar = store.calendarFor(caller.email, (request.params as { calendarId: string }).calendarId);
    if (!calendar) throw errors.notFound();
    const query = parseListQuery(request.query as Record<string, unknown>);

    let cursor: Cursor<unknown>;
    let offset = 0;
    if (query.pageToken) {
      const resolved = cursors.resolve(query.pageToken, calendar.id);
      if (!resolved) throw errors.invalid('Invalid page token value.', 'pageToken');
      ({ cursor, offset } = resolved);
    } else {
      const snapshotSeq = store.seq;
      let selected: Selected[];
      if (query.syncToken) {
        const since = store.syncTokenSeq(query.syncToken, calendar.id);
        if (since === undefined) throw errors.fullSyncRequired();
        selected = selectChangedSince(calendar, since, query);
      } else {
        selected = selectFull(calendar, query);
      }
      const origin = context.getOrigin();
      const items = selected.map(({ event, tombstone }) =>
        tombstone ? toWireTombstone(event) : toWireEvent(event, calendar, origin),
      );
      cursor = cursors.create(calendar.id, items, snapshotSeq);
    }

    const { items, ...tokens } = cursors.page(cursor, offset, query.maxResults, (seq) =>
      store.mintSyncToken(calendar.id, seq),
    );
    const updated = [...calendar.events.values()].reduce(
      (latest, e) => (e.updated > latest ? e.updated : latest),
      '',
    );
    return {
      kind: 'calendar#events',
      etag: `"p3${cursor.snapshotSeq.toString(36)}"`,
      summary: calendar.summary,
      description: calendar.description ?? '',
      updated: updated || new Date(0).toISOString(),
      timeZone: query.timeZone ?? calendar.timeZone,
      accessRole: 'owner',
      defaultReminders: calendar.defaultReminders,
      ...tokens,
      items,
    };
  });
}
