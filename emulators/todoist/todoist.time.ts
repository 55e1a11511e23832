/**
 * Time helpers. "Wall" times (a calendar date and clock time without a zone) are carried in Date
 * objects whose UTC fields hold the wall fields, so day arithmetic never crosses a DST change.
 */

export type Clock = {
  now(): Date;
  /** A Todoist timestamp (`2025-02-10T10:33:38.123456Z`), strictly increasing across calls. */
  stamp(): string;
};

export function createClock(now: () => Date = () => new Date()): Clock {
  let lastMicros = 0;
  return {
    now,
    stamp() {
      const micros = Math.max(now().getTime() * 1000, lastMicros + 1);
      lastMicros = micros;
      const millis = Math.floor(micros / 1000);
      const iso = new Date(millis).toISOString().slice(0, 19);
      return `${iso}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
    },
  };
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Building a formatter costs far more than using one: one per zone, kept. */
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC in minutes at `instant` (east positive). */
export function offsetMinutes(timeZone: string, instant: Date): number {
  const name = offsetFormatter(timeZone)
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The wall time in `timeZone` at `instant`. */
export function toWall(instant: Date, timeZone: string): Date {
  return new Date(instant.getTime() + offsetMinutes(timeZone, instant) * 60_000);
}

/** The instant at which the wall clock in `timeZone` shows `wall`. */
export function fromWall(wall: Date, timeZone: string): Date {
  let guess = new Date(wall.getTime() - offsetMinutes(timeZone, wall) * 60_000);
  guess = new Date(wall.getTime() - offsetMinutes(timeZone, guess) * 60_000);
  return guess;
}

export function addDays(wall: Date, days: number): Date {
  const next = new Date(wall.getTime());
  next.setUTCDate(next.getUTCDate() + days);
  return next;
}

export function formatDate(wall: Date): string {
  return wall.toISOString().slice(0, 10);
}

export function formatFloating(wall: Date): string {
  return wall.toISOString().slice(0, 19);
}

export function formatUtc(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** The user's `tz_info` as Todoist reports it. */
export function tzInfo(timeZone: string, instant: Date) {
  const offset = offsetMinutes(timeZone, instant);
  const year = instant.getUTCFullYear();
  const standard = Math.min(
    offsetMinutes(timeZone, new Date(Date.UTC(year, 0, 1))),
    offsetMinutes(timeZone, new Date(Date.UTC(year, 6, 1))),
  );
  const absolute = Math.abs(offset);
  const sign = offset < 0 ? '-' : '+';
  const hh = String(Math.floor(absolute / 60)).padStart(2, '0');
  const mm = String(absolute % 60).padStart(2, '0');
  return {
    gmt_string: `${sign}${hh}:${mm}`,
    hours: Math.trunc(offset / 60),
    is_dst: offset > standard ? 1 : 0,
    minutes: absolute % 60,
    timezone: timeZone,
  };
}
