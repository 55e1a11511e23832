import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { deltaItem } from './microsoft.delta-partial.ts';
import type { DeltaScope, DeltaState, PendingItem } from './microsoft.delta-store.ts';
import type { GraphContext } from './microsoft.emulator.ts';
import { badRequest, GraphError } from './microsoft.errors.ts';
import { eventJson } from './microsoft.event-mapper.ts';
import { renderOptions, viewWindow } from './microsoft.event-query.ts';
import { overlaps } from './microsoft.event-store.ts';
import { authorize } from './microsoft.graph-auth.ts';
import { resolveCalendar } from './microsoft.me-routes.ts';
import { preferenceApplied, preferences, queryOptions } from './microsoft.odata.ts';
import { PERMISSIONS } from './microsoft.scopes.ts';

const DEFAULT_PAGE_SIZE = 10;
const UNSUPPORTED = ['$select', '$expand', '$filter', '$orderby', '$search'];

/** calendarView delta: an initial round pages every event of the window, later rounds only changes. */
export function registerDeltaRoutes(app: FastifyInstance, context: GraphContext): void {
  const { events, deltas } = context;

  /** Changes since `seq`, as items: current events in the window, and removals for everything else. */
  const changedItems = (scope: DeltaScope, seq: number): PendingItem[] => {
    const items: PendingItem[] = [];
    for (const change of events.changesSince(scope.userId, scope.calendarId, seq)) {
      const event = events.get(scope.userId, change.eventId);
      const present = event
        ? events.expand(event, scope.to).filter((instance) => overlaps(instance, scope.from, scope.to))
        : [];
      const presentIds = new Set(present.map((instance) => instance.id));
      const gone = new Set(
        change.previousOccurrenceIds.length ? change.previousOccurrenceIds : [change.eventId],
      );
      for (const id of presentIds) gone.delete(id);
      const { changedFields } = change;
      items.push(...present.map((instance) => ({ id: instance.id, removed: false, changedFields })));
      items.push(...[...gone].map((id) => ({ id, removed: true })));
    }
    return items;
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const { user } = authorize(request, PERMISSIONS.readCalendars);
    const options = queryOptions(request);
    const unsupported = UNSUPPORTED.filter((name) => options[name] !== undefined);
    if (unsupported.length) {
      throw badRequest(
        'ErrorInvalidUrlQuery',
        `The following parameters are not supported with change tracking over the 'CalendarView' resource: '${unsupported.join(', ')}'.`,
      );
    }
    const prefer = preferences(request);
    const path = request.url.split('?')[0] ?? '';
    const link = (name: string, token: string) => `${context.getOrigin()}${path}?${name}=${token}`;
    const token = options.$skiptoken ?? options.$deltatoken;

    let state: Extract<DeltaState, { kind: 'skip' }>;
    if (token) {
      const lookup = deltas.lookup(token, user.id);
      if (lookup.status === 'expired') {
        const scope = lookup.scope;
        const restart = scope
          ? `${context.getOrigin()}${scope.path}?$deltatoken=&startDateTime=${new Date(scope.from).toISOString()}&endDateTime=${new Date(scope.to).toISOString()}`
          : `${context.getOrigin()}${path}?$deltatoken=`;
        throw new GraphError(
          410,
          'syncStateNotFound',
          'The sync state generation is not found. Restart the synchronization from the beginning.',
          { location: restart },
        );
      }
      const found = lookup.state;
      state =
        found.kind === 'skip'
          ? found
          : {
              ...found,
              kind: 'skip',
              items: changedItems(found, found.seq),
              offset: 0,
              nextSeq: events.seq,
              maxPageSize: prefer.maxPageSize ?? DEFAULT_PAGE_SIZE,
            };
    } else {
      const calendar = resolveCalendar(
        context,
        user.id,
        (request.params as { calendarId?: string }).calendarId,
      );
      const { from, to } = viewWindow(options);
      const items = events
        .instancesInWindow(user.id, calendar.id, from, to)
        .map((i) => ({ id: i.id, removed: false }));
      state = {
        kind: 'skip',
        userId: user.id,
        calendarId: calendar.id,
        from,
        to,
        path,
        items,
        offset: 0,
        nextSeq: events.seq,
        maxPageSize: prefer.maxPageSize ?? DEFAULT_PAGE_SIZE,
      };
    }

    const size = prefer.maxPageSize ?? state.maxPageSize;
    const render = renderOptions(request, user);
    const value = state.items.slice(state.offset, state.offset + size).map((item) => {
      const instance = item.removed ? undefined : events.instance(user.id, item.id);
      if (!instance || !overlaps(instance, state.from, state.to)) {
        return { '@odata.type': '#microsoft.graph.event', id: item.id, '@removed': { reason: 'deleted' } };
      }
      const full = { '@odata.type': '#microsoft.graph.event', ...eventJson(instance, render) };
      return context.settings.deltaChangedPropertiesOnly && item.changedFields
        ? deltaItem(full, item.changedFields)
        : full;
    });
    const { userId, calendarId, from, to } = state;
    const more = state.offset + size < state.items.length;
    const next = more
      ? {
          '@odata.nextLink': link(
            '$skiptoken',
            deltas.issue({ ...state, offset: state.offset + size, maxPageSize: size }),
          ),
        }
      : {
          '@odata.deltaLink': link(
            '$deltatoken',
            deltas.issue({
              kind: 'delta',
              userId,
              calendarId,
              from,
              to,
              path: state.path,
              seq: state.nextSeq,
            }),
          ),
        };
    const applied = preferenceApplied({ ...prefer, bodyContentType: undefined });
    if (applied) reply.header('preference-applied', applied);
    return { '@odata.context': `${context.getOrigin()}/v1.0/$metadata#Collection(event)`, ...next, value };
  };

  app.get('/me/calendarView/delta', handler);
  app.get('/me/calendar/calendarView/delta', handler);
  app.get('/me/calendars/:calendarId/calendarView/delta', handler);
}
