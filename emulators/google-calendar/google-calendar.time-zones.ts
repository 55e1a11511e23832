/**
 * Google's date and time strings: RFC 3339 date-times and `YYYY-MM-DD` dates, read and written in a
 * calendar's zone. The zone arithmetic itself is the emulators' shared wall clock.
 */

import {
  formatOffset,
  instantOfWallTime,
  offsetMinutes,
  type WallTime,
  wallClockMs,
} from '../shared/wall-clock.ts';

const wallAsUtc = (wall: WallTime) =>
  Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

export function formatDate(wall: Pick<WallTime, 'year' | 'month' | 'day'>): string {
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** RFC 3339 in the zone's local time with its offset, the way Google renders `dateTime` (`Z` for UTC). */
export function formatInZone(instantMs: number, zone: string): string {
  const local = new Date(wallClockMs(instantMs, zone)).toISOString().slice(0, 19);
  const offset = offsetMinutes(instantMs, zone);
  if (offset === 0 && (zone === 'UTC' || zone === 'Etc/UTC')) return `${local}Z`;
  return `${local}${formatOffset(offset)}`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|z|[+-]\d{2}:\d{2})?$/;

export type ParsedDateTime = { wall: WallTime; offsetMinutes: number | undefined };

export function parseDateTime(value: string): ParsedDateTime | undefined {
  const match = RFC3339.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, zone] = match;
  const wall = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s),
  };
  if (wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.day > 31 || wall.hour > 23) return undefined;
  if (wall.minute > 59 || wall.second > 60) return undefined;
  if (zone === undefined) return { wall, offsetMinutes: undefined };
  if (zone === 'Z' || zone === 'z') return { wall, offsetMinutes: 0 };
  const sign = zone.startsWith('-') ? -1 : 1;
  return { wall, offsetMinutes: sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) };
}

/** An RFC 3339 timestamp with an explicit offset (as `timeMin`, `timeMax`, `updatedMin` require). */
export function parseInstant(value: string): number | undefined {
  const parsed = parseDateTime(value);
  if (!parsed || parsed.offsetMinutes === undefined) return undefined;
  return instantOf(parsed, 'UTC');
}

/** The instant a parsed date-time denotes: by its offset, or, without one, as a wall time in `zone`. */
export function instantOf(parsed: ParsedDateTime, zone: string): number {
  if (parsed.offsetMinutes === undefined) return instantOfWallTime(parsed.wall, zone);
  return wallAsUtc(parsed.wall) - parsed.offsetMinutes * 60_000;
}

export function parseDate(value: string): { year: number; month: number; day: number } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
  if (check.getUTCMonth() !== date.month - 1 || check.getUTCDate() !== date.day) return undefined;
  return date;
}

/** Midnight at the start of a date in a zone. */
export function startOfDate(date: string, zone: string): number {
  const parsed = parseDate(date);
  if (!parsed) return Number.NaN;
  return instantOfWallTime({ ...parsed, hour: 0, minute: 0, second: 0 }, zone);
}

export function addDays(wall: WallTime, days: number): WallTime {
  const moved = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}
