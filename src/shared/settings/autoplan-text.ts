import { countOf } from '../text/count-of.ts';

/**
 * "Plan my day" in words, for the server and the web app alike: durations, the day a note names, and the
 * line for the tasks of one day that did not fit ("2 tasks (1 h 30) did not fit on Thursday"). Pure:
 * dates are `YYYY-MM-DD` calendar days, and "today" is the caller's (the user's Todoist zone).
 */

/** One day's tasks that did not fit: how many, and their minutes together. */
export type UnplacedDaySummary = { date: string; tasks: number; minutes: number };

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAY_MS = 86_400_000;

/** `45 min`, `2 h`, `2 h 05`. */
export function formatDuration(minutes: number): string {
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${String(rest).padStart(2, '0')}`;
}

/** A `YYYY-MM-DD` day as a UTC midnight, or null for anything else. */
function calendarDay(date: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCMonth() === month - 1 && at.getUTCDate() === day ? at : null;
}

/** The weekday of a `YYYY-MM-DD` day ("Thursday"); the text itself when it is no day. */
export function weekdayName(date: string): string {
  const day = calendarDay(date);
  return day ? (WEEKDAYS[day.getUTCDay()] ?? date) : date;
}

/** A short date: "Mon 7 Dec"; the text itself when it is no day. */
export function shortDate(date: string): string {
  const day = calendarDay(date);
  if (!day) return date;
  return `${weekdayName(date).slice(0, 3)} ${day.getUTCDate()} ${MONTHS[day.getUTCMonth()] ?? ''}`;
}

/**
 * How a note names a day: its weekday within the coming week, today included ("Thursday"), where the
 * name cannot be mistaken; any other day as a short date ("Mon 7 Dec").
 */
export function dayReference(date: string, today: string): string {
  const day = calendarDay(date);
  const from = calendarDay(today);
  if (!day || !from) return date;
  const ahead = Math.round((day.getTime() - from.getTime()) / DAY_MS);
  return ahead >= 0 && ahead < 7 ? weekdayName(date) : shortDate(date);
}

/** "2 tasks (1 h 30) did not fit on Thursday", "1 task (30 min) did not fit on Mon 7 Dec". */
export function describeUnplacedDay(day: UnplacedDaySummary, today: string): string {
  const count = countOf(day.tasks, 'task');
  return `${count} (${formatDuration(day.minutes)}) did not fit on ${dayReference(day.date, today)}`;
}

/**
 * The calendar day of `at` (now by default) in `timeZone`, as `YYYY-MM-DD`: the reader's "today", or the
 * day of an instant. In the runtime's own zone when the zone is missing or unknown.
 */
export function localDateIn(timeZone: string | null | undefined, at: Date = new Date()): string {
  const fields = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-CA', { ...fields, timeZone: timeZone ?? undefined });
  } catch {
    format = new Intl.DateTimeFormat('en-CA', fields);
  }
  const part = (type: string) => format.formatToParts(at).find((each) => each.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The "other calendars" checkbox's line when the user has not chosen (see `otherCalendarsCount`). */
export const OTHER_CALENDARS_BUSY_BY_DEFAULT =
  'Events in your other calendars count as busy, because Timeboxer writes to a calendar of its own.';
/** The same line once it is the user's choice, or while the main calendar is chosen. */
export const OTHER_CALENDARS_BUSY_CHOICE =
  'Otherwise only the events in the calendar Timeboxer syncs with are avoided.';

/** What the checkbox says under its label: why it is on, when the rule (not the user) decided it. */
export function otherCalendarsBusyNote(byDefault: boolean): string {
  return byDefault ? OTHER_CALENDARS_BUSY_BY_DEFAULT : OTHER_CALENDARS_BUSY_CHOICE;
}
