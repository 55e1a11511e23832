import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isTimeZone } from '../shared/wall-clock.ts';
import { callerFor } from './google-calendar.api-auth.ts';
import type { ApiContext } from './google-calendar.calendar-routes.ts';
import { errors } from './google-calendar.errors.ts';
import { toCalendarResource } from './google-calendar.mappers.ts';
import { type CalendarInput, calendarInputSchema, parseBody } from './google-calendar.schemas.ts';
import type { CalendarProperties, StoredCalendar } from './google-calendar.store.ts';

// A calendar made without a time zone gets UTC at Google, not its owner's zone (undocumented; what
// users of the API report).
const DEFAULT_TIME_ZONE = 'UTC';

/** calendars.insert, patch, update and delete: the secondary calendars an account makes and owns. */
export function registerCalendarWriteRoutes(app: FastifyInstance, context: ApiContext): void {
  const { store, channels } = context;

  /**
   * The calendar a write targets. Accounts here only see the calendars they own, and Google answers 404
   * for a calendar the caller has no access to (its 403 is for calendars shared with them, which this
   * emulator has not got).
   */
  const owned = (request: FastifyRequest) => {
    const caller = callerFor(request, 'calendarsWrite');
    const calendar = store.calendarFor(caller.email, (request.params as { calendarId: string }).calendarId);
    if (!calendar) throw errors.notFound();
    return calendar;
  };

  app.post('/calendars', async (request) => {
    const caller = callerFor(request, 'calendarsWrite');
    const input = parseBody(calendarInputSchema, request.body);
    const properties = replaced(input, DEFAULT_TIME_ZONE);
    return toCalendarResource(store.createCalendar(store.ensureAccount(caller.email, ''), properties));
  });

  app.patch('/calendars/:calendarId', async (request) => {
    const calendar = owned(request);
    const input = parseBody(calendarInputSchema, request.body);
    return toCalendarResource(store.updateCalendar(calendar, patched(calendar, input)));
  });

  app.put('/calendars/:calendarId', async (request) => {
    const calendar = owned(request);
    const input = parseBody(calendarInputSchema, request.body);
    return toCalendarResource(store.updateCalendar(calendar, replaced(input, calendar.timeZone)));
  });

  // The calendar goes with its events; its watchers hear `not_exists` once, then their channels end
  // (there is nothing left to watch).
  app.delete('/calendars/:calendarId', async (request, reply) => {
    const calendar = owned(request);
    if (calendar.primary) throw errors.cannotDeletePrimaryCalendar();
    const watching = channels.live(calendar.id);
    store.deleteCalendar(calendar);
    for (const channel of watching) channels.expireNow(channel);
    return reply.code(204).send();
  });
}

/**
 * calendars.insert and update: the body is the whole calendar, so what it leaves out is cleared, except
 * the time zone, which every calendar has (`timeZone` when the body has none).
 */
function replaced(input: CalendarInput, timeZone: string): CalendarProperties {
  return checked({
    summary: input.summary ?? '',
    description: input.description ?? undefined,
    location: input.location ?? undefined,
    timeZone: input.timeZone ?? timeZone,
  });
}

/** calendars.patch: what the body leaves out stays, `null` clears (but a calendar keeps its time zone). */
function patched(calendar: StoredCalendar, input: CalendarInput): CalendarProperties {
  const merged = (field: 'summary' | 'description' | 'location') =>
    input[field] === undefined ? calendar[field] : (input[field] ?? undefined);
  return checked({
    summary: merged('summary') ?? '',
    description: merged('description'),
    location: merged('location'),
    timeZone: input.timeZone ?? calendar.timeZone,
  });
}

/** Google's 400s: a calendar needs a title, and its time zone must be an IANA one. */
function checked(properties: CalendarProperties): CalendarProperties {
  if (!properties.summary) throw errors.required('Missing summary.');
  if (!isTimeZone(properties.timeZone)) throw errors.invalid('Invalid time zone definition.');
  return properties;
}
