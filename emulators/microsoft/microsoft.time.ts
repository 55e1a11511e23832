/**
 * Graph's `dateTimeTimeZone`: a wall-clock `dateTime` without offset (`2016-12-09T20:30:00.0000000`)
 * and a separate `timeZone`, which may be an IANA name or a Windows time zone name.
 */

import { canonicalTimeZone, instantOfWallClockMs, wallClockMs } from '../shared/wall-clock.ts';

// Windows zone ids (as Outlook stores them) to IANA, for the zones a sandbox user is likely to pick.
const WINDOWS_ZONES: Record<string, string> = {
  UTC: 'UTC',
  'Coordinated Universal Time': 'UTC',
  'GMT Standard Time': 'Europe/London',
  'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'W. Europe Standard Time': 'Europe/Berlin',
  'Central Europe Standard Time': 'Europe/Budapest',
  'Central European Standard Time': 'Europe/Warsaw',
  'Romance Standard Time': 'Europe/Paris',
  'E. Europe Standard Time': 'Europe/Chisinau',
  'FLE Standard Time': 'Europe/Kiev',
  'GTB Standard Time': 'Europe/Bucharest',
  'Russian Standard Time': 'Europe/Moscow',
  'Turkey Standard Time': 'Europe/Istanbul',
  'Israel Standard Time': 'Asia/Jerusalem',
  'South Africa Standard Time': 'Africa/Johannesburg',
  'Arabian Standard Time': 'Asia/Dubai',
  'India Standard Time': 'Asia/Kolkata',
  'SE Asia Standard Time': 'Asia/Bangkok',
  'China Standard Time': 'Asia/Shanghai',
  'Singapore Standard Time': 'Asia/Singapore',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'Korea Standard Time': 'Asia/Seoul',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'E. Australia Standard Time': 'Australia/Brisbane',
  'W. Australia Standard Time': 'Australia/Perth',
  'New Zealand Standard Time': 'Pacific/Auckland',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'Alaskan Standard Time': 'America/Anchorage',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Mountain Standard Time': 'America/Denver',
  'US Mountain Standard Time': 'America/Phoenix',
  'Central Standard Time': 'America/Chicago',
  'Eastern Standard Time': 'America/New_York',
  'Atlantic Standard Time': 'America/Halifax',
  'Newfoundland Standard Time': 'America/St_Johns',
  'SA Pacific Standard Time': 'America/Bogota',
  'Pacific SA Standard Time': 'America/Santiago',
  'E. South America Standard Time': 'America/Sao_Paulo',
  'Argentina Standard Time': 'America/Argentina/Buenos_Aires',
  'Central Standard Time (Mexico)': 'America/Mexico_City',
};

/** The IANA zone for a Graph `timeZone` value, or undefined when Graph would reject it. */
export function resolveTimeZone(name: string): string | undefined {
  const windows = WINDOWS_ZONES[name];
  if (windows) return windows;
  return name.includes('/') ? canonicalTimeZone(name) : undefined;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?(Z|[+-]\d{2}:\d{2})?$/;

/** The instant of a Graph `dateTime` in `zone`; an explicit offset in the string wins. Undefined if malformed. */
export function toInstant(dateTime: string, zone: string): number | undefined {
  const match = DATE_TIME.exec(dateTime);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const wall = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s ?? 0),
    Math.floor(Number(`0.${fraction ?? 0}`) * 1000),
  );
  if (Number.isNaN(wall) || new Date(wall).getUTCDate() !== Number(d)) return undefined;
  if (offset) {
    if (offset === 'Z') return wall;
    const sign = offset.startsWith('-') ? -1 : 1;
    const [oh, om] = offset.slice(1).split(':').map(Number);
    return wall - sign * ((oh ?? 0) * 60 + (om ?? 0)) * 60_000;
  }
  return instantOfWallClockMs(wall, zone);
}

/** `2016-12-09T20:30:00.0000000`: the wall-clock time of `ms` in `zone`, as Graph writes it. */
export function formatWallClock(ms: number, zone: string): string {
  return `${new Date(wallClockMs(ms, zone)).toISOString().slice(0, 23)}0000`;
}

/** `2017-10-03T18:05:42.0356545Z`, Graph's form of createdDateTime and friends. */
export function formatTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}0000Z`;
}

/** True when `dateTime` is at midnight (all-day events must start and end at midnight). */
export function isMidnight(ms: number, zone: string): boolean {
  return wallClockMs(ms, zone) % 86_400_000 === 0;
}
