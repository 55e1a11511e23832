import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { availabilityView, statusOf } from './microsoft.availability.ts';
import type { GraphContext } from './microsoft.emulator.ts';
import { badRequest } from './microsoft.errors.ts';
import { dateTimeInstant } from './microsoft.event-schemas.ts';
import type { EventInstance } from './microsoft.event-store.ts';
import { authorize } from './microsoft.graph-auth.ts';
import { workingHoursJson } from './microsoft.me-routes.ts';
import { preferences } from './microsoft.odata.ts';
import { PERMISSIONS } from './microsoft.scopes.ts';
import { formatWallClock, resolveTimeZone } from './microsoft.time.ts';

const dateTimeTimeZone = z.object({ dateTime: z.string(), timeZone: z.string().optional() }).strict();

/** The getSchedule action's parameters. The interval may come as a number or, as in Graph's guide, a string. */
const scheduleRequestSchema = z
  .object({
    schedules: z.array(z.string()).min(1),
    startTime: dateTimeTimeZone,
    endTime: dateTimeTimeZone,
    availabilityViewInterval: z
      .union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)])
      .optional(),
  })
  .strict();
type ScheduleRequest = z.infer<typeof scheduleRequestSchema>;

const PARAMETERS = ['schedules', 'startTime', 'endTime', 'availabilityViewInterval'];
// Limits from Graph's free/busy guide: 20 entities at once, a period under 62 days; the interval
// 5 to 1440 minutes (default 30) from the action's reference. The error codes are the emulator's.
const MAX_SCHEDULES = 20;
const MAX_PERIOD_MS = 62 * 24 * 3600 * 1000;

/**
 * `POST /me/calendar/getSchedule`: free/busy of mailboxes by SMTP address over a period. A mailbox's
 * schedule comes from the events of its default calendar (scheduleItem: "an actual event on the
 * user's default calendar"), recurring series expanded, each event whole (not clipped), with its
 * `showAs` as status. Free events are listed too, as `free`: the status values include it and the
 * docs do not say Graph leaves them out. `availabilityView` merges the items into slots. Subject, location
 * and isPrivate come only for the caller's own mailbox; other mailboxes of the emulator give times and
 * status only (Outlook shows details only where the owner shares them). An address the emulator does
 * not know answers an entry with Exchange's `error` (the request itself succeeds). Times are in the
 * `Prefer: outlook.timezone` zone, else UTC (docs/provider-facts.md §5).
 *
 * Graph documents getSchedule as not supported for personal Microsoft accounts (delegated); the
 * emulator, whose `common` sign-ins land in the consumer tenant, serves them anyway.
 */
export function registerScheduleRoutes(app: FastifyInstance, context: GraphContext): void {
  const getSchedule = async (request: FastifyRequest) => {
    const { user } = authorize(request, PERMISSIONS.readCalendars);
    const body = parseScheduleRequest(request.body);
    const from = dateTimeInstant(body.startTime).ms;
    const to = dateTimeInstant(body.endTime).ms;
    const interval = body.availabilityViewInterval ?? 30;
    if (interval < 5 || interval > 1440) {
      throw badRequest(
        'ErrorInvalidParameter',
        'The availabilityViewInterval must be between 5 and 1440 minutes.',
      );
    }
    if (to < from) throw badRequest('ErrorInvalidParameter', 'The end time must be after the start time.');
    if (to - from >= MAX_PERIOD_MS)
      throw badRequest('ErrorInvalidParameter', 'The time period to look up must be less than 62 days.');
    if (body.schedules.length > MAX_SCHEDULES) {
      throw badRequest(
        'ErrorInvalidParameter',
        `getSchedule supports at most ${MAX_SCHEDULES} schedules in one request.`,
      );
    }
    const preferred = preferences(request).timeZone;
    const zone = preferred ? resolveTimeZone(preferred) : undefined;
    const output = { zone: zone ?? 'UTC', name: zone && preferred ? preferred : 'UTC' };
    const time = (ms: number) => ({ dateTime: formatWallClock(ms, output.zone), timeZone: output.name });

    const scheduleOf = (scheduleId: string) => {
      const owner = context.mailboxes.userByEmail(scheduleId);
      const calendar = owner ? context.mailboxes.defaultCalendar(owner.id) : undefined;
      if (!owner || !calendar) {
        return {
          scheduleId,
          error: {
            message: `Unable to resolve e-mail address ${scheduleId} to an Active Directory object.`,
            responseCode: '5009',
          },
        };
      }
      const instances = context.events.instancesInWindow(owner.id, calendar.id, from, to);
      const spans = instances.map((instance) => ({
        status: statusOf(instance.event.showAs),
        start: instance.start,
        end: instance.end,
      }));
      const detailed = owner.id === user.id;
      return {
        scheduleId,
        availabilityView: availabilityView(spans, { from, to }, interval),
        scheduleItems: instances.map((instance) => scheduleItem(instance, detailed, time)),
        workingHours: workingHoursJson(owner),
      };
    };

    return {
      '@odata.context': `${context.getOrigin()}/v1.0/$metadata#Collection(microsoft.graph.scheduleInformation)`,
      value: body.schedules.map(scheduleOf),
    };
  };
  // Graph's paths ignore case; its free/busy guide writes `getschedule`.
  app.post('/me/calendar/getSchedule', getSchedule);
  app.post('/me/calendar/getschedule', getSchedule);
}

function scheduleItem(
  instance: EventInstance,
  detailed: boolean,
  time: (ms: number) => { dateTime: string; timeZone: string },
) {
  const { event } = instance;
  const status = statusOf(event.showAs);
  const span = { start: time(instance.start), end: time(instance.end) };
  if (!detailed) return { status, ...span };
  return {
    isPrivate: event.sensitivity === 'private',
    status,
    subject: event.subject,
    location: event.location.displayName,
    ...span,
  };
}

/** Action parameters as Graph reads them: names in any case (its guide writes `Schedules`), nothing else. */
function parseScheduleRequest(body: unknown): ScheduleRequest {
  const named =
    typeof body === 'object' && body !== null
      ? Object.fromEntries(
          Object.entries(body).map(([key, value]) => [
            PARAMETERS.find((name) => name.toLowerCase() === key.toLowerCase()) ?? key,
            value,
          ]),
        )
      : body;
  const parsed = scheduleRequestSchema.safeParse(named);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    throw badRequest(
      'RequestBodyRead',
      `The parameter '${issue.keys[0]}' in the request payload is not a valid parameter for the operation 'getSchedule'.`,
    );
  }
  throw badRequest(
    'RequestBodyRead',
    `Invalid value for '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'bad request'}`,
  );
}
