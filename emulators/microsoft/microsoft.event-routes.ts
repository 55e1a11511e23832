import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphContext } from './microsoft.emulator.ts';
import { badRequest } from './microsoft.errors.ts';
import { parseEventFilter } from './microsoft.event-filter.ts';
import { eventJson } from './microsoft.event-mapper.ts';
import {
  checkId,
  checkIfMatch,
  renderOptions,
  requireEditable,
  requireInstance,
  viewWindow,
} from './microsoft.event-query.ts';
import { parseEventInput, resolveEventFields } from './microsoft.event-schemas.ts';
import type { EventInstance } from './microsoft.event-store.ts';
import { authorize } from './microsoft.graph-auth.ts';
import { resolveCalendar } from './microsoft.me-routes.ts';
import { applySelect, pageOf, parseSkip, parseTop, queryOptions } from './microsoft.odata.ts';
import { PERMISSIONS } from './microsoft.scopes.ts';

type Params = { calendarId?: string; eventId?: string };

const ORDERABLE = ['start/datetime', 'end/datetime', 'lastmodifieddatetime', 'createddatetime', 'subject'];

export function registerEventRoutes(app: FastifyInstance, context: GraphContext): void {
  const { events } = context;
  const requestUrl = (request: FastifyRequest) => new URL(request.url, context.getOrigin());
  const odataContext = (userId: string, suffix: string) =>
    `${context.getOrigin()}/v1.0/$metadata#users('${userId}')/${suffix}`;

  const list = async (request: FastifyRequest) => {
    const { user } = authorize(request, PERMISSIONS.readCalendars);
    const calendar = resolveCalendar(context, user.id, (request.params as Params).calendarId);
    const options = queryOptions(request);
    const render = renderOptions(request, user, options.$expand);
    const predicate = options.$filter ? parseEventFilter(options.$filter) : undefined;
    let rows = events
      .list(user.id, calendar.id)
      .map((event) => events.instance(user.id, event.id) as EventInstance)
      .map((instance) => ({ instance, utc: eventJson(instance, { user }) }))
      .filter(({ instance, utc }) => !predicate || predicate(utc, instance.event));
    if (options.$orderby) rows = orderBy(rows, options.$orderby);
    const page = pageOf(rows, parseSkip(options.$skip), parseTop(options.$top, 10), requestUrl(request));
    return {
      '@odata.context': odataContext(user.id, `calendars('${calendar.id}')/events`),
      value: page.value.map(({ instance }) => applySelect(eventJson(instance, render), options.$select)),
      ...(page.nextLink ? { '@odata.nextLink': page.nextLink } : {}),
    };
  };

  const calendarView = async (request: FastifyRequest) => {
    const { user } = authorize(request, PERMISSIONS.readCalendars);
    const calendar = resolveCalendar(context, user.id, (request.params as Params).calendarId);
    const options = queryOptions(request);
    const { from, to } = viewWindow(options);
    const render = renderOptions(request, user, options.$expand);
    const predicate = options.$filter ? parseEventFilter(options.$filter) : undefined;
    const rows = events
      .instancesInWindow(user.id, calendar.id, from, to)
      .filter((instance) => !predicate || predicate(eventJson(instance, { user }), instance.event));
    const page = pageOf(rows, parseSkip(options.$skip), parseTop(options.$top, 10), requestUrl(request));
    return {
      '@odata.context': odataContext(user.id, 'calendarView'),
      value: page.value.map((instance) => applySelect(eventJson(instance, render), options.$select)),
      ...(page.nextLink ? { '@odata.nextLink': page.nextLink } : {}),
    };
  };

  const create = async (request: FastifyRequest, reply: FastifyReply) => {
    const { user } = authorize(request, PERMISSIONS.writeCalendars);
    const calendar = resolveCalendar(context, user.id, (request.params as Params).calendarId);
    requireEditable(calendar);
    const input = parseEventInput(request.body);
    // Graph's transactionId: a create retried within a short window, in the same calendar, returns
    // the event the first attempt made; later, or elsewhere, the same id makes a new event.
    const since = Date.now() - context.settings.transactionIdWindowMs;
    const existing = input.transactionId
      ? events.byTransactionId(user.id, calendar.id, input.transactionId, since)
      : undefined;
    const event =
      existing ?? events.create(user.id, calendar.id, resolveEventFields(input), input.transactionId ?? null);
    const instance = events.instance(user.id, event.id) as EventInstance;
    return reply
      .code(201)
      .header('location', `${context.getOrigin()}/v1.0/Users('${user.id}')/Events('${event.id}')`)
      .send({
        '@odata.context': odataContext(user.id, 'events/$entity'),
        ...eventJson(instance, renderOptions(request, user)),
      });
  };

  const get = async (request: FastifyRequest) => {
    const { user } = authorize(request, PERMISSIONS.readCalendars);
    const { calendarId, eventId = '' } = request.params as Params;
    checkId(eventId);
    if (calendarId) resolveCalendar(context, user.id, calendarId);
    const instance = requireInstance(events.instance(user.id, eventId), calendarId);
    const options = queryOptions(request);
    return {
      '@odata.context': odataContext(user.id, 'events/$entity'),
      ...applySelect(eventJson(instance, renderOptions(request, user, options.$expand)), options.$select),
    };
  };

  const update = async (request: FastifyRequest) => {
    const { user } = authorize(request, PERMISSIONS.writeCalendars);
    const { calendarId, eventId = '' } = request.params as Params;
    checkId(eventId);
    const instance = requireInstance(events.instance(user.id, eventId), calendarId);
    requireEditable(context.mailboxes.calendar(user.id, instance.event.calendarId));
    if (instance.type === 'occurrence') {
      throw badRequest(
        'ErrorInvalidRequest',
        'The emulator does not support changing a single occurrence of a series.',
      );
    }
    checkIfMatch(request, instance.event);
    const input = parseEventInput(request.body);
    if (input.transactionId !== undefined && input.transactionId !== instance.event.transactionId) {
      throw badRequest('ErrorInvalidRequest', 'The transactionId of an event cannot be changed.');
    }
    events.update(instance.event, resolveEventFields(input, instance.event));
    const updated = events.instance(user.id, eventId) as EventInstance;
    return {
      '@odata.context': odataContext(user.id, 'events/$entity'),
      ...eventJson(updated, renderOptions(request, user)),
    };
  };

  const remove = async (request: FastifyRequest, reply: FastifyReply) => {
    const { user } = authorize(request, PERMISSIONS.writeCalendars);
    const { calendarId, eventId = '' } = request.params as Params;
    checkId(eventId);
    const instance = requireInstance(events.instance(user.id, eventId), calendarId);
    requireEditable(context.mailboxes.calendar(user.id, instance.event.calendarId));
    checkIfMatch(request, instance.event);
    if (instance.type === 'occurrence') events.cancelOccurrence(instance);
    else events.delete(instance.event);
    return reply.code(204).send();
  };

  const instances = async (request: FastifyRequest) => {
    const { user } = authorize(request, PERMISSIONS.readCalendars);
    const { eventId = '' } = request.params as Params;
    checkId(eventId);
    const master = requireInstance(events.instance(user.id, eventId));
    const { from, to } = viewWindow(queryOptions(request));
    const render = renderOptions(request, user);
    return {
      '@odata.context': odataContext(user.id, `events('${eventId}')/instances`),
      value: events
        .expand(master.event, to)
        .filter((instance) => instance.start < to && instance.end > from)
        .map((instance) => eventJson(instance, render)),
    };
  };

  for (const base of ['/me', '/me/calendar', '/me/calendars/:calendarId']) {
    app.get(`${base}/events`, list);
    app.post(`${base}/events`, create);
    app.get(`${base}/calendarView`, calendarView);
    app.get(`${base}/events/:eventId`, get);
    app.patch(`${base}/events/:eventId`, update);
    app.delete(`${base}/events/:eventId`, remove);
  }
  app.get('/me/events/:eventId/instances', instances);
}

function orderBy<T extends { utc: Record<string, unknown> }>(rows: T[], expression: string): T[] {
  const [rawPath = '', direction = 'asc'] = expression.trim().split(/\s+/);
  const path = rawPath.toLowerCase();
  if (!ORDERABLE.includes(path))
    throw badRequest('ErrorInvalidProperty', `The property '${rawPath}' cannot be used to order.`);
  const value = (row: T) => {
    const [head, tail] = path.split('/');
    const entry = Object.entries(row.utc).find(([key]) => key.toLowerCase() === head)?.[1];
    const leaf =
      tail && typeof entry === 'object' && entry !== null
        ? (entry as Record<string, unknown>).dateTime
        : entry;
    return String(leaf ?? '');
  };
  const sign = direction.toLowerCase() === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => sign * value(a).localeCompare(value(b)));
}
