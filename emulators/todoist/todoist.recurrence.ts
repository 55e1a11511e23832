import { addDays } from './todoist.time.ts';

/**
 * The recurrences the emulator understands, stepped on "wall" dates (see todoist.time.ts):
 * "every [N|other] day(s)/week(s)/month(s)", "daily/weekly/monthly", "every <weekday>[, <weekday>…]"
 * (full or short names), and "every weekday" (Monday to Friday). "every!" counts from completion.
 */
export type Recurrence =
  | { kind: 'days'; every: number; fromCompletion: boolean }
  /** Days of the week, 0 = Sunday (as `getUTCDay`). */
  | { kind: 'weekdays'; days: readonly number[]; fromCompletion: boolean }
  | { kind: 'months'; every: number; fromCompletion: boolean };

const WEEKDAYS: Record<string, number> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};
const WORKDAYS = [1, 2, 3, 4, 5];

const COUNTED = /^(?:(\d+|other) )?(day|days|week|weeks|month|months)$/;
const SHORTHAND: Record<string, [unit: 'days' | 'months', every: number]> = {
  daily: ['days', 1],
  weekly: ['days', 7],
  monthly: ['months', 1],
};

/** Parses the part of a due string before " at <time>", lower-cased; undefined when not a recurrence. */
export function parseRecurrence(head: string): Recurrence | undefined {
  const shorthand = SHORTHAND[head];
  if (shorthand) return { kind: shorthand[0], every: shorthand[1], fromCompletion: false };
  const match = /^every(!)? (.+)$/.exec(head);
  if (!match) return undefined;
  const fromCompletion = match[1] === '!';
  const rest = match[2] ?? '';

  const counted = COUNTED.exec(rest);
  if (counted) {
    const [, countText, unit = ''] = counted;
    const count = countText === 'other' ? 2 : Number(countText ?? 1);
    if (!Number.isInteger(count) || count < 1) return undefined;
    if (unit.startsWith('month')) return { kind: 'months', every: count, fromCompletion };
    return { kind: 'days', every: count * (unit.startsWith('week') ? 7 : 1), fromCompletion };
  }
  if (rest === 'weekday' || rest === 'workday') return { kind: 'weekdays', days: WORKDAYS, fromCompletion };

  const names = rest.split(/\s*,\s*|\s+and\s+/);
  const days = names.map((name) => WEEKDAYS[name]);
  if (days.some((day) => day === undefined)) return undefined;
  return { kind: 'weekdays', days: [...new Set(days as number[])].sort(), fromCompletion };
}

/** The month `months` later on the same day, or that month's last day when it is shorter. */
export function addMonths(wall: Date, months: number): Date {
  const year = wall.getUTCFullYear();
  const month = wall.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const next = new Date(wall.getTime());
  next.setUTCFullYear(year, month, Math.min(wall.getUTCDate(), lastDay));
  return next;
}

/** The first occurrence on a later day than `wall`, at the same time of day. */
export function nextAfter(recurrence: Recurrence, wall: Date): Date {
  switch (recurrence.kind) {
    case 'days':
      return addDays(wall, recurrence.every);
    case 'months':
      return addMonths(wall, recurrence.every);
    case 'weekdays': {
      let next = addDays(wall, 1);
      while (!recurrence.days.includes(next.getUTCDay())) next = addDays(next, 1);
      return next;
    }
  }
}

/** `wall` when it is an occurrence day (every day is, for counted rules: they start there), else the next. */
export function onOrAfter(recurrence: Recurrence, wall: Date): Date {
  if (recurrence.kind !== 'weekdays' || recurrence.days.includes(wall.getUTCDay())) return wall;
  return nextAfter(recurrence, wall);
}
