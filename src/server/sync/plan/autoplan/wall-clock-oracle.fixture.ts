/**
 * Test oracle for wall-clock questions, independent of the code under test: it asks Intl (not
 * @date-fns/tz) and finds instants by scanning every 5 minutes instead of converting.
 */

const FIVE_MINUTES_MS = 5 * 60_000;
const HOUR_MS = 60 * 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
/** (zone, date) → the 5-minute instants around that date with their wall-clock keys, in time order. */
const scans = new Map<string, { ms: number; key: string }[]>();

/** `YYYY-MM-DDTHH:MM` on the wall clock of `timeZone` at `ms`. */
export function oracleWallClock(ms: number, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(ms).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The user's date at `ms`. */
export const oracleDate = (ms: number, timeZone: string) => oracleWallClock(ms, timeZone).slice(0, 10);

function scanAround(date: string, timeZone: string): { ms: number; key: string }[] {
  const cacheKey = `${timeZone} ${date}`;
  const cached = scans.get(cacheKey);
  if (cached) return cached;
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const scan: { ms: number; key: string }[] = [];
  for (let ms = utcMidnight - 16 * HOUR_MS; ms <= utcMidnight + 42 * HOUR_MS; ms += FIVE_MINUTES_MS) {
    scan.push({ ms, key: oracleWallClock(ms, timeZone) });
  }
  scans.set(cacheKey, scan);
  return scan;
}

/**
 * The first instant (on the 5-minute grid) whose wall clock reads `date` at `minute` (a multiple of
 * 5, up to 1440) or later.
 */
export function oracleWallClockInstant(date: string, minute: number, timeZone: string): number {
  const nextDay = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const pad = (value: number) => String(value).padStart(2, '0');
  const target =
    minute >= 1440 ? `${nextDay}T00:00` : `${date}T${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
  const found = scanAround(date, timeZone).find((entry) => entry.key >= target);
  if (!found) throw new Error(`oracle: no instant reads ${target} in ${timeZone}`);
  return found.ms;
}

/** ISO weekday (1 Monday … 7 Sunday) of a calendar date. */
export const oracleWeekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay() || 7;
