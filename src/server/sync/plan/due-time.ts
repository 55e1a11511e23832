import { TZDate } from '@date-fns/tz';
import type { ItemWhen } from '#shared/api/activity-names.schema.ts';
import type { DueWrite, TaskDue } from '../task-source.port.ts';

/**
 * Todoist due times and instants. A floating due ("at 9:00", no zone) means 9:00 wherever the Todoist
 * user is: it is read and written in the Todoist user's time zone. A fixed due is an instant (`…Z`)
 * and stays one. All-day dues have no time and are never timeboxed.
 */

/**
 * Todoist documents a floating due as `2016-12-01T12:00:00.000000` (microseconds) and a fixed one as
 * `2016-12-06T13:00:00.000000Z`; the fraction is optional here, as the API also answers without it.
 */
const FLOATING = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;
/** A fixed due names its instant: UTC (`Z`) or an offset. Anything else is never read in our own zone. */
const FIXED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function hasTime(due: TaskDue | null): due is TaskDue {
  return due !== null && !DATE_ONLY.test(due.date);
}

/** The instant a due time stands for; null for an all-day due or one we cannot read. */
export function dueInstant(due: TaskDue | null, userTimeZone: string): Date | null {
  if (!hasTime(due)) return null;
  const floating = FLOATING.exec(due.date);
  if (floating) {
    const [, y, mo, d, h, mi, s] = floating.map(Number) as number[];
    return localToInstant(
      {
        year: y as number,
        month: mo as number,
        day: d as number,
        hour: h as number,
        minute: mi as number,
        second: s || 0,
      },
      userTimeZone,
    );
  }
  if (!FIXED.test(due.date)) return null;
  const instant = new Date(due.date);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

type LocalTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** Clock changes of 2 hours, 1 hour and 30 minutes, largest first: zones in use change by one of these. */
const REPEAT_SPANS_MS = [120, 60, 30].map((minutes) => minutes * 60_000);

/**
 * A wall-clock time in a zone as an instant; a time skipped by a DST change moves forward, a time
 * repeated by one (clocks going back) is the earlier instant, as Google Calendar and Todoist take it.
 * TZDate alone may answer either of the two, depending on the machine's own zone.
 */
export function localToInstant(local: LocalTime, timeZone: string): Date {
  const guess = new TZDate(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    local.second,
    timeZone,
  ).getTime();
  const reading = instantToLocal(new Date(guess), timeZone);
  const earlier = REPEAT_SPANS_MS.find(
    (span) => instantToLocal(new Date(guess - span), timeZone) === reading,
  );
  return new Date(earlier === undefined ? guess : guess - earlier);
}

/** `YYYY-MM-DDTHH:MM:SS` of an instant in a zone. */
export function instantToLocal(instant: Date, timeZone: string): string {
  const date = new TZDate(instant.getTime(), timeZone);
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** The start of the user's day containing `now`. */
export function startOfLocalDay(now: Date, timeZone: string): Date {
  const date = new TZDate(now.getTime(), timeZone);
  return localToInstant(
    {
      year: date.getFullYear(),
      month: date.getMonth() + 1,
      day: date.getDate(),
      hour: 0,
      minute: 0,
      second: 0,
    },
    timeZone,
  );
}

const utcString = (instant: Date) => `${instant.toISOString().slice(0, 19)}Z`;

/**
 * The due to write for a new start: the same kind as before (floating stays floating in the user's
 * zone, fixed stays fixed in its zone), and a recurring task keeps its recurrence string.
 */
export function dueWriteFor(start: Date, previous: TaskDue | null, userTimeZone: string): DueWrite {
  const recurrence = previous?.isRecurring ? { string: previous.string } : {};
  if (previous?.timezone) {
    return { kind: 'fixed', utc: utcString(start), timezone: previous.timezone, ...recurrence };
  }
  return { kind: 'floating', local: instantToLocal(start, userTimeZone), ...recurrence };
}

/** The all-day due on the user's date of `start` (an event deleted: the task keeps its date). */
export function dateOnlyDue(start: Date, userTimeZone: string): DueWrite {
  return { kind: 'date', date: instantToLocal(start, userTimeZone).slice(0, 10) };
}

/**
 * When a due is, as a screen shows it: a fixed due is an instant; a floating one its wall time (the same
 * in every zone, so it is never turned into an instant of ours); a date its day. Null for none, or one
 * we cannot read.
 */
export function dueWhen(due: TaskDue | null): ItemWhen | null {
  if (!due) return null;
  if (DATE_ONLY.test(due.date)) return { kind: 'date', date: due.date };
  const floating = FLOATING.exec(due.date);
  if (floating) return { kind: 'floating', local: due.date.slice(0, 16) };
  const instant = dueInstant(due, 'UTC');
  return instant ? { kind: 'instant', start: instant.toISOString() } : null;
}
