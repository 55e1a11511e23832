import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerFor } from './google-calendar.api-auth.ts';
import type { ApiContext } from './google-calendar.calendar-routes.ts';
import { errors } from './google-calendar.errors.ts';
import {
  applyPatch,
  finalizeDraft,
  isValidEventId,
  onlyRemindersChanged,
  timesChanged,
} from './google-calendar.event-model.ts';
import { findInstance } from './google-calendar.instances.ts';
import { toWireEvent } from './google-calendar.mappers.ts';
import { eventInputSchema, parseBody } from './google-calendar.schemas.ts';
import { canWriteEvents, eventIn, type StoredCalendar, type StoredEvent } from './google-calendar.store.ts';

type EventParams = { calendarId: string; eventId: string };
type Access = 'eventsRead' | 'eventsWrite' | 'eventsMove';

const SEND_UPDATES = ['all', 'externalOnly', 'none'];

/** events.insert, get, patch, update, delete and move. */
export function registerEventRoutes(app: FastifyInstance, context: ApiContext): void {
  const { store } = context;
  const wire = (event: StoredEvent, calendar: StoredCalendar) =>
    toWireEvent(event, calendar, context.getOrigin());

  const calendarOf = (request: FastifyRequest, access: Access, calendarId?: string) => {
    const caller = callerFor(request, access);
    const id = calendarId ?? (request.params as { calendarId: string }).calendarId;
    const calendar = store.calendarFor(caller.email, id);
    if (!calendar) throw errors.notFound();
    // A move changes the event's organizer: it takes write access on both calendars (assumed: the
    // events.move page names only scopes; docs/provider-facts.md §9).
    if (access !== 'eventsRead' && !canWriteEvents(calendar)) throw errors.requiredAccessLevel('writer');
    return calendar;
  };

  const checkIfMatch = (request: FastifyRequest, event: StoredEvent) => {
    const ifMatch = request.headers['if-match'];
    if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== event.etag) throw errors.conditionNotMet();
  };

  /** The stored event a write targets, after the `If-Match` precondition. */
  const writable = (request: FastifyRequest) => {
    const calendar = calendarOf(request, 'eventsWrite');
    const event = eventIn(calendar, (request.params as EventParams).eventId);
    if (!event) throw errors.notFound();
    checkIfMatch(request, event);
    return { calendar, event };
  };

  app.post('/calendars/:calendarId/events', async (request) => {
    const calendar = calendarOf(request, 'eventsWrite');
    const input = parseBody(eventInputSchema, request.body);
    let id = input.id ?? undefined;
    if (id !== undefined) {
      if (!isValidEventId(id)) throw errors.invalid('Invalid resource id value.');
      if (calendar.events.has(id)) throw errors.duplicate();
    } else {
      id = newEventId();
    }
    const normalized = finalizeDraft({ ...input, id: undefined }, calendar.timeZone);
    return wire(store.write(calendar, id, normalized), calendar);
  });

  app.get('/calendars/:calendarId/events/:eventId', async (request, reply) => {
    const calendar = calendarOf(request, 'eventsRead');
    const { eventId } = request.params as EventParams;
    const event = eventIn(calendar, eventId) ?? findInstance(calendar, eventId);
    if (!event) throw errors.notFound();
    if (request.headers['if-none-match'] === event.etag) return reply.code(304).send();
    return wire(event, calendar);
  });

  app.patch('/calendars/:calendarId/events/:eventId', async (request) => {
    const { calendar, event } = writable(request);
    const input = parseBody(eventInputSchema, request.body);
    const normalized = finalizeDraft(applyPatch(event.data, input), calendar.timeZone);
    return wire(store.write(calendar, event.id, normalized, writeOptions(event, normalized.data)), calendar);
  });

  app.put('/calendars/:calendarId/events/:eventId', async (request) => {
    const { calendar, event } = writable(request);
    const input = parseBody(eventInputSchema, request.body);
    if (input.id && input.id !== event.id) throw errors.invalid('Invalid resource id value.');
    const normalized = finalizeDraft(
      { ...input, status: input.status ?? event.data.status },
      calendar.timeZone,
    );
    return wire(store.write(calendar, event.id, normalized, writeOptions(event, normalized.data)), calendar);
  });

  app.delete('/calendars/:calendarId/events/:eventId', async (request, reply) => {
    const { calendar, event } = writable(request);
    if (event.data.status === 'cancelled') throw errors.deleted();
    store.cancel(calendar, event);
    return reply.code(204).send();
  });

  // events.move: the event goes to another calendar of the caller's with its id and iCalUID, as the
  // destination shows it (organizer, link, etag); the source keeps only a cancelled entry. A whole
  // recurring event moves with its instances; one instance alone cannot move (Google's 400).
  app.post('/calendars/:calendarId/events/:eventId/move', async (request) => {
    const source = calendarOf(request, 'eventsMove');
    const query = request.query as Record<string, unknown>;
    const destinationId = typeof query.destination === 'string' ? query.destination : '';
    if (!destinationId) throw errors.required('Required parameter: destination', 'destination');
    if (query.sendUpdates !== undefined && !SEND_UPDATES.includes(String(query.sendUpdates)))
      throw errors.invalid('Invalid Value', 'sendUpdates');
    const destination = calendarOf(request, 'eventsMove', destinationId);
    const { eventId } = request.params as EventParams;
    const event = eventIn(source, eventId);
    if (!event && findInstance(source, eventId)) throw errors.cannotChangeOrganizerOfInstance();
    // Google does not say what moving a deleted event does; here it is as unknown as one never made.
    if (!event || event.data.status === 'cancelled') throw errors.notFound();
    checkIfMatch(request, event);
    // Moving to the calendar the event is on changes nothing (the emulator's choice; Google is silent).
    if (destination.id === source.id) return wire(event, source);
    // The destination may hold the cancelled entry this same event left there; any other event with
    // the id is a clash.
    const there = destination.events.get(event.id);
    if (there && !(there.data.status === 'cancelled' && there.iCalUID === event.iCalUID))
      throw errors.duplicate();
    const normalized = finalizeDraft(event.data, destination.timeZone);
    return wire(store.move(source, destination, event, normalized), destination);
  });
}

// Only reminders changed: `updated` stays (as Google documents). Times changed: `sequence` goes up.
const writeOptions = (event: StoredEvent, data: StoredEvent['data']) => ({
  keepUpdated: onlyRemindersChanged(event.data, data),
  bumpSequence: timesChanged(event.data, data),
});

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/** A 26-character base32hex id, like the ones Google generates. */
function newEventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(26));
  return Array.from(bytes, (byte) => BASE32HEX[byte % 32]).join('');
}
