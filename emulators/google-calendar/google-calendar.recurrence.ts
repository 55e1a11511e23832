import type { WallTime } from '../shared/wall-clock.ts';
import { addDays, parseDateTime } from './google-calendar.time-zones.ts';

/**
 * A practical subset of RFC 5545 recurrence: one RRULE with FREQ (DAILY, WEEKLY, MONTHLY, YEARLY),
 * INTERVAL, COUNT, UNTIL and BYDAY (weekly), plus EXDATE. Enough to expand the series the product
 * meets; RDATE and the rarer BY* parts are accepted but not expanded.
 */
export type RecurrenceRule = {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  interval: number;
  count: number | undefined;
  /** Last allowed start: a `YYYYMMDD` date or a UTC instant in ms. */
  until: { date: string } | { instantMs: number } | undefined;
  byDay: number[] | undefined;
};

export type Recurrence = { rule: RecurrenceRule | undefined; exdates: string[] };

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const FREQS = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
const MAX_SCAN_DAYS = 20_000;

/** Undefined when a line is not a recurrence line Google would accept. */
export function parseRecurrence(lines: readonly string[]): Recurrence | undefined {
  let rule: RecurrenceRule | undefined;
  const exdates: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).split(';')[0]?.toUpperCase();
    const value = line.slice(colon + 1);
    if (colon < 0) return undefined;
    if (name === 'RRULE') {
      const parsed = parseRule(value);
      if (!parsed) return undefined;
      rule ??= parsed;
    } else if (name === 'EXDATE') {
      exdates.push(...value.split(','));
    } else if (name !== 'RDATE' && name !== 'EXRULE') {
      return undefined;
    }
  }
  return { rule, exdates };
}

function parseRule(value: string): RecurrenceRule | undefined {
  const parts = new Map(value.split(';').map((part) => part.split('=') as [string, string]));
  const freq = FREQS.find((f) => f === parts.get('FREQ')?.toUpperCase());
  if (!freq) return undefined;
  const interval = Number(parts.get('INTERVAL') ?? '1');
  const count = parts.has('COUNT') ? Number(parts.get('COUNT')) : undefined;
  if (!Number.isInteger(interval) || interval < 1) return undefined;
  if (count !== undefined && (!Number.isInteger(count) || count < 1)) return undefined;
  const untilText = parts.get('UNTIL');
  let until: RecurrenceRule['until'];
  if (untilText) {
    until = parseIcalStamp(untilText);
    if (!until) return undefined;
  }
  const byDayText = parts.get('BYDAY');
  const byDay = byDayText
    ?.split(',')
    .map((day) => WEEKDAYS.indexOf(day.replace(/^[+-]?\d+/, '').toUpperCase()));
  if (byDay?.some((day) => day < 0)) return undefined;
  return { freq, interval, count, until, byDay };
}

/** `20240131` or `20240131T090000Z` (floating values are read as UTC). */
function parseIcalStamp(value: string): { date: string } | { instantMs: number } | undefined {
  const date = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (date) return { date: `${date[1]}-${date[2]}-${date[3]}` };
  const stamp = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z?$/.exec(value);
  if (!stamp) return undefined;
  const parsed = parseDateTime(`${stamp[1]}-${stamp[2]}-${stamp[3]}T${stamp[4]}:${stamp[5]}:${stamp[6]}Z`);
  if (!parsed) return undefined;
  const { wall } = parsed;
  return { instantMs: Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) };
}

type Day = { year: number; month: number; day: number };
const dayNumber = (d: Day) => Math.round(Date.UTC(d.year, d.month - 1, d.day) / 86_400_000);
const weekday = (d: Day) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();

function matches(rule: RecurrenceRule, first: Day, candidate: Day): boolean {
  switch (rule.freq) {
    case 'DAILY':
      return (dayNumber(candidate) - dayNumber(first)) % rule.interval === 0;
    case 'WEEKLY': {
      const weekStart = (d: Day) => dayNumber(d) - ((weekday(d) + 6) % 7);
      const weeks = (weekStart(candidate) - weekStart(first)) / 7;
      const days = rule.byDay ?? [weekday(first)];
      return weeks % rule.interval === 0 && days.includes(weekday(candidate));
    }
    case 'MONTHLY': {
      const months = (candidate.year - first.year) * 12 + candidate.month - first.month;
      return months % rule.interval === 0 && candidate.day === first.day;
    }
    case 'YEARLY':
      return (
        (candidate.year - first.year) % rule.interval === 0 &&
        candidate.month === first.month &&
        candidate.day === first.day
      );
  }
}

/**
 * The local start dates of a series, first one included, in order, while `isAllowed(date)` and the
 * rule's COUNT/UNTIL allow; `endDay` bounds the scan. EXDATEs are the caller's business.
 */
export function occurrenceDays(
  rule: RecurrenceRule,
  first: WallTime,
  endDayExclusive: Day,
  isBeyondUntil: (day: Day) => boolean,
  maxCount: number,
): Day[] {
  const days: Day[] = [];
  let produced = 0;
  const last = Math.min(dayNumber(endDayExclusive), dayNumber(first) + MAX_SCAN_DAYS);
  for (let offset = 0; dayNumber(first) + offset < last; offset++) {
    const candidate = addDays(first, offset);
    if (!matches(rule, first, candidate)) continue;
    if (isBeyondUntil(candidate)) break;
    produced += 1;
    if (rule.count !== undefined && produced > rule.count) break;
    days.push({ year: candidate.year, month: candidate.month, day: candidate.day });
    if (days.length >= maxCount) break;
  }
  return days;
}
