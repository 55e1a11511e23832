import { z } from 'zod';
import { formatWallClock, toInstant } from './microsoft.time.ts';

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

/** Graph's patternedRecurrence. The emulator expands `daily` and `weekly` patterns only. */
export const recurrenceSchema = z.object({
  pattern: z.object({
    type: z.preprocess(lower, z.enum(['daily', 'weekly'])),
    interval: z.number().int().min(1).max(999),
    daysOfWeek: z.array(z.preprocess(lower, z.enum(DAYS))).optional(),
    firstDayOfWeek: z.preprocess(lower, z.enum(DAYS)).optional(),
    month: z.number().int().optional(),
    dayOfMonth: z.number().int().optional(),
    index: z.string().optional(),
  }),
  range: z.object({
    type: z.preprocess(lower, z.enum(['enddate', 'noend', 'numbered'])),
    startDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    endDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullish(),
    numberOfOccurrences: z.number().int().min(0).optional(),
    recurrenceTimeZone: z.string().optional(),
  }),
});
export type Recurrence = z.infer<typeof recurrenceSchema>;

const RANGE_TYPES: Record<string, string> = { enddate: 'endDate', noend: 'noEnd', numbered: 'numbered' };
const MAX_OCCURRENCES = 1000;
const DAY_MS = 24 * 3600 * 1000;

/** Graph's JSON for a stored recurrence. */
export function recurrenceJson(recurrence: Recurrence) {
  const { pattern, range } = recurrence;
  return {
    pattern: {
      type: pattern.type,
      interval: pattern.interval,
      month: pattern.month ?? 0,
      dayOfMonth: pattern.dayOfMonth ?? 0,
      daysOfWeek: pattern.daysOfWeek ?? [],
      firstDayOfWeek: pattern.firstDayOfWeek ?? 'sunday',
      index: pattern.index ?? 'first',
    },
    range: {
      type: RANGE_TYPES[range.type] ?? range.type,
      startDate: range.startDate,
      endDate: range.endDate ?? '0001-01-01',
      recurrenceTimeZone: range.recurrenceTimeZone ?? 'UTC',
      numberOfOccurrences: range.numberOfOccurrences ?? 0,
    },
  };
}

/**
 * Start instants of the series' occurrences, keeping the master's wall-clock time in `zone`.
 * `until` bounds open-ended series; `cancelled` holds the dates (YYYY-MM-DD) deleted one by one.
 */
export function occurrenceStarts(
  recurrence: Recurrence,
  masterStart: number,
  zone: string,
  until: number,
  cancelled: ReadonlySet<string> = new Set(),
): number[] {
  const { pattern, range } = recurrence;
  const time = formatWallClock(masterStart, zone).slice(10);
  const first = Date.parse(`${range.startDate}T00:00:00Z`);
  const last =
    range.type === 'enddate' && range.endDate ? Date.parse(`${range.endDate}T00:00:00Z`) : Infinity;
  const limit = range.type === 'numbered' ? (range.numberOfOccurrences ?? 0) : MAX_OCCURRENCES;
  const weekdays = new Set(
    (pattern.daysOfWeek?.length ? pattern.daysOfWeek : [DAYS[new Date(first).getUTCDay()] ?? 'sunday']).map(
      (day) => DAYS.indexOf(day),
    ),
  );
  const starts: number[] = [];
  let counted = 0;
  for (let day = first; day <= last && counted < Math.min(limit, MAX_OCCURRENCES); day += DAY_MS) {
    const offsetDays = Math.round((day - first) / DAY_MS);
    const matches =
      pattern.type === 'daily'
        ? offsetDays % pattern.interval === 0
        : weekdays.has(new Date(day).getUTCDay()) && Math.floor(offsetDays / 7) % pattern.interval === 0;
    if (!matches) continue;
    counted += 1;
    const date = new Date(day).toISOString().slice(0, 10);
    const start = toInstant(`${date}${time}`, zone);
    if (start === undefined) continue;
    if (start > until) break;
    if (!cancelled.has(date)) starts.push(start);
  }
  return starts;
}
