import { TZDate, tz } from '@date-fns/tz';
import { format } from 'date-fns';

/**
 * Working hours as wall-clock times in the user's zone, turned into instants for one date.
 *
 * One rule covers every daylight-saving case: "09:00 on a date" is the FIRST instant at which the
 * user's wall clock reads that date and 09:00 or later. In a spring-forward gap (the time does not
 * exist) that is the first instant after the jump; in a fall-back overlap (the time happens twice) it is
 * the earlier of the two. So a day can have 23 or 25 working hours, as the clock on the wall says.
 */

export const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const MINUTES_PER_DAY = 24 * 60;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})$/;

export type Interval = { start: Date; end: Date };

export type WorkingHours = {
  /** ISO weekdays that are working days: 1 is Monday … 7 is Sunday. */
  days: readonly number[];
  /** Wall-clock `HH:MM` in the user's zone; `end` may be `24:00` (midnight ending the day). */
  start: string;
  end: string;
  /** Kept free before and after every block the planner places (0…30). */
  gapMinutes: number;
};

type CalendarDate = { year: number; month: number; day: number };

/** The parts of a `YYYY-MM-DD` date; throws a RangeError for anything else (`2024-02-30` too). */
export function parseDate(date: string): CalendarDate {
  const match = DATE.exec(date);
  const [year, month, day] = match ? match.slice(1).map(Number) : [];
  if (year === undefined || month === undefined || day === undefined || shiftDate(date, 0) !== date) {
    throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  }
  return { year, month, day };
}

/** The date `days` after `date` (calendar arithmetic only: no zone is involved). */
export function shiftDate(date: string, days: number): string {
  const [year = Number.NaN, month = Number.NaN, day = Number.NaN] = date.split('-').map(Number);
  const shifted = new Date(Date.UTC(year, month - 1, day + days));
  return Number.isNaN(shifted.getTime()) ? '' : shifted.toISOString().slice(0, 10);
}

/** ISO weekday of a calendar date: 1 is Monday … 7 is Sunday. */
export function isoWeekday(date: string): number {
  const { year, month, day } = parseDate(date);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay() || 7;
}

/** Minutes after midnight of a wall-clock `HH:MM` (00:00 … 24:00). */
export function minuteOfDay(time: string): number {
  const match = TIME.exec(time);
  const hours = Number(match?.[1]);
  const minutes = Number(match?.[2]);
  const total = hours * 60 + minutes;
  if (!match || minutes > 59 || total > MINUTES_PER_DAY) {
    throw new RangeError(`Not a wall-clock time (HH:MM, 00:00 to 24:00): ${time}`);
  }
  return total;
}

/** The user's calendar date (`YYYY-MM-DD`) at an instant. */
export function localDateOf(instant: Date | number, timeZone: string): string {
  return format(instant, 'yyyy-MM-dd', { in: tz(timeZone) });
}

/** `YYYY-MM-DDTHH:MM` read off the user's wall clock; such keys sort like the times they name. */
const wallClockKey = (ms: number, timeZone: string) => format(ms, "yyyy-MM-dd'T'HH:mm", { in: tz(timeZone) });

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * The first instant at which the wall clock in `timeZone` reads `date` at `minute` minutes past
 * midnight, or later (see the rule at the top of this file).
 */
export function wallClockInstant(date: string, minute: number, timeZone: string): Date {
  if (minute >= MINUTES_PER_DAY) {
    return wallClockInstant(
      shiftDate(date, Math.floor(minute / MINUTES_PER_DAY)),
      minute % MINUTES_PER_DAY,
      timeZone,
    );
  }
  const { year, month, day } = parseDate(date);
  const hour = Math.floor(minute / 60);
  const target = `${date}T${pad(hour)}:${pad(minute % 60)}`;
  const guess = new TZDate(year, month - 1, day, hour, minute % 60, 0, timeZone).getTime();
  if (wallClockKey(guess, timeZone) === target) return earliestReadingSame(guess, target, timeZone);
  return firstInstantReading(target, guess - DAY_MS, guess + DAY_MS, timeZone);
}

/** Clock changes of 30 minutes to 2 hours, largest first; zones in use change by one of these. */
const REPEAT_SPANS_MS = [120, 60, 30].map((minutes) => minutes * MINUTE_MS);

/**
 * A time repeated by fall-back happens twice, and TZDate may return either instant (it depends on
 * the machine's zone): step back by each possible clock change to find the earlier one.
 */
function earliestReadingSame(instantMs: number, target: string, timeZone: string): Date {
  const earlier = REPEAT_SPANS_MS.find((span) => wallClockKey(instantMs - span, timeZone) === target);
  return new Date(earlier === undefined ? instantMs : instantMs - earlier);
}

/**
 * A time skipped by a spring-forward change: search (by whole minutes, as zones change on whole
 * minutes) for the first instant whose wall clock reads `target` or later. The wall clock only goes
 * forward across a gap, so the search is a bisection.
 */
function firstInstantReading(target: string, fromMs: number, untilMs: number, timeZone: string): Date {
  let before = Math.floor(fromMs / MINUTE_MS);
  let atOrAfter = Math.ceil(untilMs / MINUTE_MS);
  while (atOrAfter - before > 1) {
    const middle = Math.floor((before + atOrAfter) / 2);
    if (wallClockKey(middle * MINUTE_MS, timeZone) >= target) atOrAfter = middle;
    else before = middle;
  }
  return new Date(atOrAfter * MINUTE_MS);
}

/** Working hours with their times read; throws a RangeError for hours the settings should not allow. */
export type ParsedHours = {
  days: ReadonlySet<number>;
  startMinute: number;
  endMinute: number;
  gapMs: number;
};

export function parseWorkingHours(hours: WorkingHours): ParsedHours {
  const startMinute = minuteOfDay(hours.start);
  const endMinute = minuteOfDay(hours.end);
  if (endMinute <= startMinute) {
    throw new RangeError(`Working hours end (${hours.end}) must be after their start (${hours.start})`);
  }
  if (!Number.isFinite(hours.gapMinutes) || hours.gapMinutes < 0) {
    throw new RangeError(`Gap between blocks must be zero or more minutes: ${hours.gapMinutes}`);
  }
  return { days: new Set(hours.days), startMinute, endMinute, gapMs: hours.gapMinutes * MINUTE_MS };
}

/**
 * The working hours of `date` as instants; null on a day that is not a working day or whose hours
 * vanish in a daylight-saving jump (start and end both fall in the same gap).
 */
export function workingWindow(date: string, hours: ParsedHours, timeZone: string): Interval | null {
  if (!hours.days.has(isoWeekday(date))) return null;
  const start = wallClockInstant(date, hours.startMinute, timeZone);
  const end = wallClockInstant(date, hours.endMinute, timeZone);
  return end > start ? { start, end } : null;
}
