/**
 * Wall-clock time in IANA zones, for every emulator. A wall time (a date and clock time without a zone)
 * is carried either as fields (`WallTime`) or as the milliseconds at which a UTC clock shows it, so that
 * day arithmetic on it never crosses a DST change.
 */

import { TZDate, tzOffset } from '@date-fns/tz';

export type WallTime = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

const canonicalNames = new Map<string, string>();

/** The zone's canonical name (`europe/berlin` → `Europe/Berlin`), or undefined when Intl does not know it. */
export function canonicalTimeZone(zone: string): string | undefined {
  let name = canonicalNames.get(zone);
  if (name === undefined) {
    try {
      name = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      return undefined;
    }
    canonicalNames.set(zone, name);
  }
  return name;
}

export const isTimeZone = (zone: string): boolean => canonicalTimeZone(zone) !== undefined;

/** The zone's offset from UTC at `instantMs`, in minutes (east positive). */
export function offsetMinutes(instantMs: number, zone: string): number {
  return Math.round(tzOffset(zone, new Date(instantMs)));
}

/** `+05:30`, `-04:00`: an offset in minutes as RFC 3339 writes it. */
export function formatOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The wall time `instantMs` shows in `zone`, as the milliseconds at which a UTC clock shows it. */
export function wallClockMs(instantMs: number, zone: string): number {
  return instantMs + offsetMinutes(instantMs, zone) * 60_000;
}

/**
 * The instant at which `zone` shows the wall time `wallMs`. In an overlap (clocks going back) the earlier
 * instant wins; in a gap (clocks going forward) the time moves forward by the gap, as java.time and
 * Google Calendar do.
 */
export function instantOfWallClockMs(wallMs: number, zone: string): number {
  // The offsets half a day either side: a wall time is one of these two readings, or falls in the gap.
  const before = wallMs - offsetMinutes(wallMs - 43_200_000, zone) * 60_000;
  const after = wallMs - offsetMinutes(wallMs + 43_200_000, zone) * 60_000;
  const valid = [before, after].filter((instant) => wallClockMs(instant, zone) === wallMs);
  return valid.length > 0 ? Math.min(...valid) : before;
}

/** The wall time `instantMs` shows in `zone`, as fields. */
export function wallTimeIn(instantMs: number, zone: string): WallTime {
  const local = new TZDate(instantMs, zone);
  return {
    year: local.getFullYear(),
    month: local.getMonth() + 1,
    day: local.getDate(),
    hour: local.getHours(),
    minute: local.getMinutes(),
    second: local.getSeconds(),
  };
}

/** The instant at which `zone` shows `wall` (see `instantOfWallClockMs` for DST gaps and overlaps). */
export function instantOfWallTime(wall: WallTime, zone: string): number {
  const wallMs = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return instantOfWallClockMs(wallMs, zone);
}
