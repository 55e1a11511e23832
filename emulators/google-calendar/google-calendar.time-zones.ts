/** Wall-clock arithmetic in IANA zones with Intl only: offsets, local rendering, local time → instant. */
export type WallTime = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, found);
  }
  return found;
}

export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

export function wallTimeIn(instantMs: number, zone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const wallAsUtc = (wall: WallTime) =>
  Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);

export function offsetMinutes(instantMs: number, zone: string): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  return Math.round((wallAsUtc(wallTimeIn(whole, zone)) - whole) / 60_000);
}

/**
 * The instant a local time denotes. In an overlap (clocks going back) the earlier instant wins; in a gap
 * (clocks going forward) the time moves forward by the gap, as java.time and Google Calendar do.
 */
export function instantOfWallTime(wall: WallTime, zone: string): number {
  const guess = wallAsUtc(wall);
  const before = guess - offsetMinutes(guess - 43_200_000, zone) * 60_000;
  const after = guess - offsetMinutes(guess + 43_200_000, zone) * 60_000;
  const valid = [before, after].filter((instant) => wallAsUtc(wallTimeIn(instant, zone)) === guess);
  return valid.length > 0 ? Math.min(...valid) : before;
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

export function formatDate(wall: Pick<WallTime, 'year' | 'month' | 'day'>): string {
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** RFC 3339 in the zone's local time with its offset, the way Google renders `dateTime` (`Z` for UTC). */
export function formatInZone(instantMs: number, zone: string): string {
  const wall = wallTimeIn(instantMs, zone);
  const offset = offsetMinutes(instantMs, zone);
  const local = `${formatDate(wall)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;
  if (offset === 0 && (zone === 'UTC' || zone === 'Etc/UTC')) return `${local}Z`;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
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
