import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isTimeZone } from '../shared/wall-clock.ts';
import { callerFor } from './google-calendar.api-auth.ts';
import { busyIntervals } from './google-calendar.busy.ts';
import type { ApiContext } from './google-calendar.calendar-routes.ts';
import { errors } from './google-calendar.errors.ts';
import { parseBody } from './google-calendar.schemas.ts';
import { formatInZone, parseInstant } from './google-calendar.time-zones.ts';

/** The FreeBusyRequest body. The expansion limits concern groups, which the emulator has none of. */
const freeBusyRequestSchema = z.object({
  timeMin: z.string(),
  timeMax: z.string(),
  timeZone: z.string().nullish(),
  groupExpansionMax: z.number().int().nullish(),
  calendarExpansionMax: z.number().int().nullish(),
  items: z.array(z.object({ id: z.string() })).nullish(),
});

/**
 * freebusy.query (`POST /freeBusy`): per requested calendar id (as given, `primary` included) the busy
 * spans of the window, or, for a calendar the caller cannot see, Google's per-calendar `notFound` with
 * no spans; the whole request does not fail for it (docs/provider-facts.md §4).
 */
export function registerFreeBusyRoutes(app: FastifyInstance, context: ApiContext): void {
  const { store } = context;

  app.post('/freeBusy', async (request) => {
    const caller = callerFor(request, 'freeBusyRead');
    const body = parseBody(freeBusyRequestSchema, request.body);
    const fromMs = parseInstant(body.timeMin);
    const toMs = parseInstant(body.timeMax);
    if (fromMs === undefined || toMs === undefined) throw errors.badRequest();
    if (fromMs >= toMs) throw errors.timeRangeEmpty();
    const timeZone = body.timeZone ?? 'UTC';
    if (!isTimeZone(timeZone)) throw errors.invalid('Invalid time zone definition.', 'timeZone');
    const at = (ms: number) => formatInZone(ms, timeZone);

    const calendars: Record<string, unknown> = {};
    for (const { id } of body.items ?? []) {
      const calendar = store.calendarFor(caller.email, id);
      calendars[id] = calendar
        ? {
            busy: busyIntervals(calendar, { fromMs, toMs }).map((span) => ({
              start: at(span.startMs),
              end: at(span.endMs),
            })),
          }
        : { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
    }
    // Google echoes the window in UTC with milliseconds, and writes the spans without them, in
    // `timeZone` (`Z` for UTC, the zone's offset otherwise).
    return {
      kind: 'calendar#freeBusy',
      timeMin: new Date(fromMs).toISOString(),
      timeMax: new Date(toMs).toISOString(),
      calendars,
    };
  });
}
