import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GraphContext } from './microsoft.emulator.ts';
import { badRequest, GraphError, notFound } from './microsoft.errors.ts';
import { authorize, authorizeDirectory } from './microsoft.graph-auth.ts';
import { type Calendar, canEditCalendar, type MailboxUser } from './microsoft.mailbox-store.ts';
import { applySelect, pageOf, parseSkip, parseTop, queryOptions } from './microsoft.odata.ts';
import { PERMISSIONS } from './microsoft.scopes.ts';

const CALENDAR_COLORS = [
  'auto',
  'lightBlue',
  'lightGreen',
  'lightOrange',
  'lightGray',
  'lightYellow',
  'lightTeal',
  'lightPink',
  'lightBrown',
  'lightRed',
  'maxColor',
] as const;

const newCalendarSchema = z
  .object({ name: z.string().min(1), color: z.enum(CALENDAR_COLORS).optional() })
  .strict();

/** The calendar a route names, or the default calendar; 404 as Graph does for a calendar of no one. */
export function resolveCalendar(
  context: GraphContext,
  userId: string,
  calendarId: string | undefined,
): Calendar {
  const calendar =
    calendarId === undefined
      ? context.mailboxes.defaultCalendar(userId)
      : context.mailboxes.calendar(userId, calendarId);
  if (!calendar) throw notFound();
  return calendar;
}

/**
 * A calendar as Graph gives it. One shared with the user has its sharer as `owner`, cannot be shared on
 * (`canShare` false), shows no private items, and `canEdit` says whether the share lets the user write
 * (docs/provider-facts.md §9).
 */
export function calendarJson(calendar: Calendar, user: MailboxUser) {
  const shared = calendar.sharedBy !== undefined;
  return {
    id: calendar.id,
    name: calendar.name,
    color: calendar.color,
    hexColor: calendar.hexColor,
    isDefaultCalendar: calendar.isDefaultCalendar,
    changeKey: calendar.changeKey,
    canShare: !shared,
    canViewPrivateItems: !shared,
    canEdit: canEditCalendar(calendar),
    allowedOnlineMeetingProviders: ['skypeForConsumer'],
    defaultOnlineMeetingProvider: 'skypeForConsumer',
    isTallyingResponses: !shared,
    isRemovable: !calendar.isDefaultCalendar,
    owner: calendar.sharedBy ?? { name: user.displayName, address: user.email },
  };
}

export function meJson(user: MailboxUser) {
  const [givenName = user.displayName, ...rest] = user.displayName.split(' ');
  return {
    businessPhones: [],
    displayName: user.displayName,
    givenName,
    jobTitle: null,
    mail: user.email,
    mobilePhone: null,
    officeLocation: null,
    preferredLanguage: null,
    surname: rest.join(' ') || null,
    userPrincipalName: user.email,
    id: user.id,
  };
}

/** The mailbox's working hours, as mailboxSettings and getSchedule give them. */
export function workingHoursJson(user: MailboxUser) {
  return {
    daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    startTime: '08:00:00.0000000',
    endTime: '17:00:00.0000000',
    timeZone: { name: user.timeZone },
  };
}

function mailboxSettingsJson(user: MailboxUser) {
  return {
    archiveFolder: 'AQMkADAwATM0MDAAMS1iNTcwLWI2NTEtMDACLTAwCgAuAAADArchive',
    timeZone: user.timeZone,
    automaticRepliesSetting: {
      status: 'disabled',
      externalAudience: 'all',
      internalReplyMessage: '',
      externalReplyMessage: '',
      scheduledStartDateTime: { dateTime: '2024-01-01T00:00:00.0000000', timeZone: 'UTC' },
      scheduledEndDateTime: { dateTime: '2024-01-02T00:00:00.0000000', timeZone: 'UTC' },
    },
    language: { locale: 'en-US', displayName: 'English (United States)' },
    workingHours: workingHoursJson(user),
    dateFormat: 'M/d/yyyy',
    timeFormat: 'h:mm tt',
    userPurpose: 'user',
    delegateMeetingMessageDeliveryOptions: 'sendToDelegateOnly',
  };
}

export function registerMeRoutes(app: FastifyInstance, context: GraphContext): void {
  const metadata = (suffix: string) => `${context.getOrigin()}/v1.0/$metadata#${suffix}`;

  app.get('/me', async (request) => {
    const { user } = authorizeDirectory(request, PERMISSIONS.readUser);
    const { $select } = queryOptions(request);
    return { '@odata.context': metadata('users/$entity'), ...applySelect(meJson(user), $select, ['id']) };
  });

  app.get('/me/mailboxSettings', async (request) => {
    const { user } = authorize(request, PERMISSIONS.readMailboxSettings);
    return {
      '@odata.context': metadata(`users('${user.id}')/mailboxSettings`),
      ...mailboxSettingsJson(user),
    };
  });

  app.get('/me/mailboxSettings/timeZone', async (request) => {
    const { user } = authorize(request, PERMISSIONS.readMailboxSettings);
    return {
      '@odata.context': metadata(`users('${user.id}')/mailboxSettings/timeZone`),
      value: user.timeZone,
    };
  });

  app.get('/me/calendars', async (request) => {
    const { user } = authorize(request, PERMISSIONS.readCalendars);
    const options = queryOptions(request);
    const calendars = context.mailboxes.calendars(user.id).map((calendar) => calendarJson(calendar, user));
    const url = new URL(request.url, context.getOrigin());
    const page = pageOf(calendars, parseSkip(options.$skip), parseTop(options.$top, 10), url);
    return {
      '@odata.context': metadata(`users('${user.id}')/calendars`),
      value: page.value.map((calendar) => applySelect(calendar, options.$select, ['id'])),
      ...(page.nextLink ? { '@odata.nextLink': page.nextLink } : {}),
    };
  });

  app.post('/me/calendars', async (request, reply) => {
    const { user } = authorize(request, PERMISSIONS.writeCalendars);
    const parsed = newCalendarSchema.safeParse(request.body);
    if (!parsed.success)
      throw badRequest('RequestBodyRead', parsed.error.issues[0]?.message ?? 'Invalid calendar.');
    const taken = context.mailboxes
      .calendars(user.id)
      .some((calendar) => calendar.name.toLowerCase() === parsed.data.name.toLowerCase());
    if (taken)
      throw new GraphError(409, 'ErrorFolderExists', 'A folder with the specified name already exists.');
    const calendar = context.mailboxes.createCalendar(user.id, parsed.data.name, parsed.data.color);
    return reply.code(201).send({
      '@odata.context': metadata(`users('${user.id}')/calendars/$entity`),
      ...calendarJson(calendar, user),
    });
  });

  const getCalendar = async (request: FastifyRequest) => {
    const { user } = authorize(request, PERMISSIONS.readCalendars);
    const calendar = resolveCalendar(
      context,
      user.id,
      (request.params as { calendarId?: string }).calendarId,
    );
    const { $select } = queryOptions(request);
    return {
      '@odata.context': metadata(`users('${user.id}')/calendars/$entity`),
      ...applySelect(calendarJson(calendar, user), $select, ['id']),
    };
  };
  app.get('/me/calendar', getCalendar);
  app.get('/me/calendars/:calendarId', getCalendar);

  // Delete calendar: 204, its events go with it; the default calendar cannot be deleted (assumed error).
  app.delete('/me/calendars/:calendarId', async (request, reply) => {
    const { user } = authorize(request, PERMISSIONS.writeCalendars);
    const calendar = resolveCalendar(context, user.id, (request.params as { calendarId: string }).calendarId);
    if (calendar.isDefaultCalendar)
      throw badRequest('ErrorInvalidRequest', 'The default calendar cannot be deleted.');
    for (const event of context.events.list(user.id, calendar.id)) context.events.delete(event);
    context.mailboxes.deleteCalendar(user.id, calendar.id);
    return reply.code(204).send();
  });
}
