import { errors } from './todoist.errors.ts';
import { nextAfter, onOrAfter, parseRecurrence, type Recurrence } from './todoist.recurrence.ts';
import { addDays, formatDate, formatFloating, formatUtc, fromWall, toWall } from './todoist.time.ts';

/** The v1 due object: `date` is `YYYY-MM-DD`, floating `YYYY-MM-DDTHH:MM:SS`, or UTC `…Z` with `timezone`. */
export type Due = {
  date: string;
  string: string;
  lang: string;
  is_recurring: boolean;
  timezone: string | null;
};

/** "Now" and the user's time zone, which decide what "today" and "every day at 9am" mean. */
export type DueContext = { now: Date; timeZone: string };

type ParsedDate =
  | { kind: 'date'; wall: Date }
  | { kind: 'floating'; wall: Date }
  | { kind: 'fixed'; instant: Date };

type Time = { hours: number; minutes: number };
type ParsedString =
  | { kind: 'clear' }
  | { kind: 'recurring'; recurrence: Recurrence; time: Time | undefined }
  | { kind: 'once'; day: Date | 'today' | 'tomorrow'; time: Time | undefined };

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function parseDueDate(value: string): ParsedDate | undefined {
  const match = DATE_TIME.exec(value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, zone] = match;
  const wall = new Date(
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)),
  );
  if (formatDate(wall) !== `${y}-${mo}-${d}` || Number(h ?? 0) > 23 || Number(mi ?? 0) > 59) return undefined;
  if (h === undefined) return { kind: 'date', wall };
  if (zone === undefined) return { kind: 'floating', wall };
  if (zone === 'Z') return { kind: 'fixed', instant: wall };
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  return { kind: 'fixed', instant: new Date(wall.getTime() - offset * 60_000) };
}

function parseTime(value: string | undefined): Time | undefined | null {
  if (value === undefined) return undefined;
  if (value === 'noon') return { hours: 12, minutes: 0 };
  if (value === 'midnight') return { hours: 0, minutes: 0 };
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(value);
  if (!match) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2] ?? 0);
  if (minutes > 59 || hours > 23 || (match[3] && (hours < 1 || hours > 12))) return null;
  if (match[3] === 'pm' && hours < 12) hours += 12;
  if (match[3] === 'am' && hours === 12) hours = 0;
  return { hours, minutes };
}

/**
 * The small grammar the emulator understands: a recurrence (todoist.recurrence.ts) or
 * "today/tomorrow/YYYY-MM-DD", either with "at <time>".
 */
export function parseDueString(input: string): ParsedString | undefined {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === 'no date' || text === 'no due date') return { kind: 'clear' };
  const [head = '', timeText] = text.split(' at ', 2);
  const time = parseTime(timeText);
  if (time === null) return undefined;
  const recurrence = parseRecurrence(head);
  if (recurrence) return { kind: 'recurring', recurrence, time };
  if (head === 'today' || head === 'tomorrow') return { kind: 'once', day: head, time };
  const date = parseDueDate(head);
  if (date?.kind === 'date') return { kind: 'once', day: date.wall, time };
  return undefined;
}

export function recurrenceOf(due: Due): Recurrence {
  const parsed = parseDueString(due.string);
  return parsed?.kind === 'recurring' ? parsed.recurrence : { kind: 'days', every: 1, fromCompletion: false };
}

function startOfDay(wall: Date): Date {
  return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()));
}

function atTime(day: Date, time: Time): Date {
  return new Date(day.getTime() + (time.hours * 60 + time.minutes) * 60_000);
}

const dayFormatter = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

function humanString(parsed: ParsedDate, timeZone: string): string {
  const wall = parsed.kind === 'fixed' ? toWall(parsed.instant, timeZone) : parsed.wall;
  const day = dayFormatter.format(wall);
  if (parsed.kind === 'date') return day;
  return `${day} ${wall.toISOString().slice(11, 16)}`;
}

function dueAt(parsed: ParsedDate, zone: string | null | undefined, ctx: DueContext) {
  if (parsed.kind === 'date') return { date: formatDate(parsed.wall), timezone: null };
  if (parsed.kind === 'floating') {
    if (!zone) return { date: formatFloating(parsed.wall), timezone: null };
    return { date: formatUtc(fromWall(parsed.wall, zone)), timezone: zone };
  }
  return { date: formatUtc(parsed.instant), timezone: zone ?? ctx.timeZone };
}

/** The first occurrence a parsed string points to. */
function firstDate(parsed: Exclude<ParsedString, { kind: 'clear' }>, ctx: DueContext): ParsedDate {
  const nowWall = toWall(ctx.now, ctx.timeZone);
  const today = startOfDay(nowWall);
  if (parsed.kind === 'once') {
    const day = parsed.day === 'today' ? today : parsed.day === 'tomorrow' ? addDays(today, 1) : parsed.day;
    return parsed.time ? { kind: 'floating', wall: atTime(day, parsed.time) } : { kind: 'date', wall: day };
  }
  const { recurrence } = parsed;
  if (!parsed.time) return { kind: 'date', wall: onOrAfter(recurrence, today) };
  let candidate = onOrAfter(recurrence, atTime(today, parsed.time));
  while (candidate <= nowWall) candidate = nextAfter(recurrence, candidate);
  return { kind: 'floating', wall: candidate };
}

export type DueSpec = {
  string?: string | undefined;
  date?: string | undefined;
  timezone?: string | null | undefined;
  lang?: string | undefined;
};

/**
 * Builds a due object from a string and/or an explicit date (REST `due_string`/`due_date`/`due_datetime`,
 * Sync `due`). Returns null for "no date"; throws INVALID_ARGUMENT_VALUE naming `argument` otherwise.
 */
export function buildDue(spec: DueSpec, ctx: DueContext, argument: string): Due | null {
  const lang = spec.lang ?? 'en';
  const parsedString = spec.string === undefined ? undefined : parseDueString(spec.string);
  if (parsedString?.kind === 'clear' && spec.date === undefined) return null;
  if (spec.date !== undefined) {
    const parsed = parseDueDate(spec.date);
    if (!parsed) throw errors.invalid(argument, `Invalid date: ${spec.date}`);
    const string = spec.string?.trim() || humanString(parsed, spec.timezone ?? ctx.timeZone);
    return {
      ...dueAt(parsed, spec.timezone, ctx),
      string,
      lang,
      is_recurring: parsedString?.kind === 'recurring',
    };
  }
  if (spec.string === undefined) throw errors.invalid(argument, 'A due date needs a date or a string');
  if (!parsedString || parsedString.kind === 'clear') {
    throw errors.invalid(argument, `Unable to parse the date: ${spec.string}`);
  }
  const first = firstDate(parsedString, ctx);
  return {
    ...dueAt(first, spec.timezone, ctx),
    string: spec.string.trim(),
    lang,
    is_recurring: parsedString.kind === 'recurring',
  };
}

/**
 * A recurring task's next occurrence after completion: the first one after now (after today for
 * dates), on the wall clock of the user's zone, or of the due's own zone for a fixed time.
 */
export function nextOccurrence(due: Due, ctx: DueContext): Due {
  const recurrence = recurrenceOf(due);
  const parsed = parseDueDate(due.date);
  if (!parsed) return due;
  const zone = parsed.kind === 'fixed' ? (due.timezone ?? ctx.timeZone) : ctx.timeZone;
  const nowWall = toWall(ctx.now, zone);
  const today = startOfDay(nowWall);
  const wall = parsed.kind === 'fixed' ? toWall(parsed.instant, zone) : parsed.wall;
  const timeOfDay = wall.getTime() - startOfDay(wall).getTime();
  let next = nextAfter(recurrence, recurrence.fromCompletion ? new Date(today.getTime() + timeOfDay) : wall);
  if (parsed.kind === 'date') {
    while (next < today) next = nextAfter(recurrence, next);
    return { ...due, date: formatDate(next) };
  }
  while (next <= nowWall) next = nextAfter(recurrence, next);
  if (parsed.kind === 'floating') return { ...due, date: formatFloating(next) };
  return { ...due, date: formatUtc(fromWall(next, zone)) };
}
