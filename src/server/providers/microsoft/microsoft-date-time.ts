/**
 * Graph's `dateTimeTimeZone` (`2030-05-01T09:00:00.0000000` plus a zone name) to and from instants.
 * We ask for UTC on reads (`Prefer: outlook.timezone="UTC"`) and write in the user's IANA zone, so
 * Outlook shows the zone the user knows.
 */

import { tz, tzOffset } from '@date-fns/tz';
import { format } from 'date-fns';

const UTC_NAMES = new Set(['utc', 'etc/utc', 'etc/gmt', 'gmt', 'coordinated universal time', 'z']);
const OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;
/** Graph's wall-clock form: seconds with seven fraction digits. */
const GRAPH_DATE_TIME = "yyyy-MM-dd'T'HH:mm:ss.SSS'0000'";

/** Zones Intl has accepted: building a formatter to ask costs far more than the conversions. */
const knownZones = new Set<string>();

/**
 * `name` when it is a zone other than UTC that Intl knows; null otherwise. (Intl, not @date-fns/tz,
 * decides: the latter would read a stray `+05` in any name as an offset.)
 */
function namedZone(name: string): string | null {
  if (UTC_NAMES.has(name.toLowerCase())) return null;
  if (!knownZones.has(name)) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
    } catch {
      return null;
    }
    knownZones.add(name);
  }
  return name;
}

/** The wall-clock time of `ms` in `zone`, as Graph writes it. */
const wallClock = (ms: number, zone: string) => format(ms, GRAPH_DATE_TIME, { in: tz(zone) });

/**
 * The zone to write `instants` in: `timeZone` when Intl knows it and none of them falls in the repeated
 * hour of a DST change (Graph could read such a wall-clock time back an hour off); UTC otherwise.
 */
export function writableZone(instants: Date[], timeZone: string): string {
  const zone = namedZone(timeZone);
  if (!zone) return 'UTC';
  const ambiguous = instants.some((instant) => {
    const ms = instant.getTime();
    const local = wallClock(ms, zone);
    return [-3_600_000, -1_800_000, 1_800_000, 3_600_000].some(
      (shift) => wallClock(ms + shift, zone) === local,
    );
  });
  return ambiguous ? 'UTC' : timeZone;
}

/** The instant as a Graph `dateTimeTimeZone` in `timeZone` (UTC, or a zone `writableZone` chose). */
export function toGraphDateTime(instant: Date, timeZone: string): { dateTime: string; timeZone: string } {
  const zone = namedZone(timeZone) ?? 'UTC';
  return { dateTime: wallClock(instant.getTime(), zone), timeZone: zone };
}

/** The instant of a Graph `dateTimeTimeZone`; null when it cannot be read (unknown zone, bad format). */
export function fromGraphDateTime(value: {
  dateTime: string;
  timeZone?: string | null | undefined;
}): Date | null {
  const text = value.dateTime.trim();
  const zoneName = value.timeZone ?? 'UTC';
  if (OFFSET.test(text) || UTC_NAMES.has(zoneName.toLowerCase())) {
    const ms = Date.parse(OFFSET.test(text) ? text : `${text}Z`);
    return Number.isNaN(ms) ? null : new Date(ms);
  }
  const zone = namedZone(zoneName);
  const wall = Date.parse(`${text}Z`);
  if (!zone || Number.isNaN(wall)) return null;
  // Two passes settle the offset around a daylight-saving change.
  const offset = (ms: number) => Math.round(tzOffset(zone, new Date(ms)) * 60_000);
  let ms = wall - offset(wall);
  ms = wall - offset(ms);
  return new Date(ms);
}
