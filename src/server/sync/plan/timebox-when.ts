import { type CalendarEvent, dayAfter } from '../calendar-target.port.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { DueWrite, TaskDue } from '../task-source.port.ts';
import { dueInstant, dueWriteFor, instantToLocal, localToInstant } from './due-time.ts';

/**
 * When a timebox is: a start time, or a whole day (a task with a date but no time shown as an all-day
 * event, docs/product-rules.md §10 "Tasks with a date but no time"). An all-day timebox starts at the
 * beginning of its day in the user's zone, so both kinds compare as instants on a link.
 */
export type When = { start: Date; allDay: boolean };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The start of `date` (`YYYY-MM-DD`) in `timeZone`; null for anything else. */
export function startOfDate(date: string, timeZone: string): Date | null {
  const match = DATE_ONLY.exec(date);
  if (!match) return null;
  const [, year, month, day] = match.map(Number) as number[];
  return localToInstant(
    { year: year as number, month: month as number, day: day as number, hour: 0, minute: 0, second: 0 },
    timeZone,
  );
}

/** The user's date (`YYYY-MM-DD`) of an instant. */
export const localDate = (instant: Date, timeZone: string): string =>
  instantToLocal(instant, timeZone).slice(0, 10);

/** When a task's due places its timebox; a date without a time only where dated tasks are all-day events. */
export function dueWhen(due: TaskDue | null, settings: SyncSettings): When | null {
  const start = dueInstant(due, settings.timeZone);
  if (start) return { start, allDay: false };
  if (due === null || settings.datedTasks !== 'allday') return null;
  const day = startOfDate(due.date, settings.timeZone);
  return day && { start: day, allDay: true };
}

/**
 * When an event is, as a pair's other side: timed, or all-day where dated tasks are all-day events or
 * the pair already is a whole day (`pairAllDay`: its own all-day event, also after the setting changed).
 */
export function eventWhen(event: CalendarEvent, settings: SyncSettings, pairAllDay = false): When | null {
  if (event.deleted) return null;
  if (!event.allDay) return event.start && { start: event.start, allDay: false };
  if ((settings.datedTasks !== 'allday' && !pairAllDay) || event.date === null) return null;
  const day = startOfDate(event.date, settings.timeZone);
  return day && { start: day, allDay: true };
}

/** The bounds an event written for `when` gets, and its date when it is all-day. */
export function eventTiming(
  when: When,
  minutes: number,
  timeZone: string,
): { start: Date; end: Date; date: string | null } {
  if (!when.allDay) {
    return { start: when.start, end: new Date(when.start.getTime() + minutes * 60_000), date: null };
  }
  const date = localDate(when.start, timeZone);
  const end = startOfDate(dayAfter(date), timeZone) ?? new Date(when.start.getTime() + 86_400_000);
  return { start: when.start, end, date };
}

/** The due to write for `when`: a date for an all-day timebox (a recurrence kept), else a time. */
export function dueWriteForWhen(when: When, previous: TaskDue | null, timeZone: string): DueWrite {
  if (!when.allDay) return dueWriteFor(when.start, previous, timeZone);
  const recurrence = previous?.isRecurring ? { string: previous.string } : {};
  return { kind: 'date', date: localDate(when.start, timeZone), ...recurrence };
}

/** A link's timebox as a `When`. */
export const linkWhen = (link: { startAt: Date; allDay: boolean }): When => ({
  start: link.startAt,
  allDay: link.allDay,
});

export const sameWhen = (a: When, b: When): boolean =>
  a.allDay === b.allDay && a.start.getTime() === b.start.getTime();
