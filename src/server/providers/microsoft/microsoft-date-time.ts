/**
 * Graph's `dateTimeTimeZone` (`2030-05-01T09:00:00.0000000` plus a zone name) to and from instants.
 * We ask for UTC on reads (`Prefer: outlook.timezone="UTC"`) and write in the user's IANA zone, so
 * Outlook shows the zone the user knows.
 */

const UTC_NAMES = new Set(['utc', 'etc/utc', 'etc/gmt', 'gmt', 'coordinated universal time', 'z']);
const OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat | null {
  let found = formatters.get(zone);
  if (!found) {
    try {
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
    } catch {
      return null;
    }
    formatters.set(zone, found);
  }
  return found;
}

/** `YYYY-MM-DDTHH:MM:SS` of `ms` in `zone`. */
function wallClock(ms: number, zone: Intl.DateTimeFormat): string {
  const parts = Object.fromEntries(zone.formatToParts(ms).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

const fraction = (ms: number) => `.${String(((ms % 1000) + 1000) % 1000).padStart(3, '0')}0000`;

/**
 * The zone to write `instants` in: `timeZone` when Intl knows it and none of them falls in the repeated
 * hour of a DST change (Graph could read such a wall-clock time back an hour off); UTC otherwise.
 */
export function writableZone(instants: Date[], timeZone: string): string {
  const zone = UTC_NAMES.has(timeZone.toLowerCase()) ? null : formatter(timeZone);
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
  const ms = instant.getTime();
  const zone = UTC_NAMES.has(timeZone.toLowerCase()) ? null : formatter(timeZone);
  const local = zone ? wallClock(ms, zone) : instant.toISOString().slice(0, 19);
  return { dateTime: `${local}${fraction(ms)}`, timeZone: zone ? timeZone : 'UTC' };
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
  const zone = formatter(zoneName);
  const wall = Date.parse(`${text}Z`);
  if (!zone || Number.isNaN(wall)) return null;
  // Two passes settle the offset around a daylight-saving change.
  const offset = (ms: number) => Date.parse(`${wallClock(ms, zone)}Z`) - (ms - (((ms % 1000) + 1000) % 1000));
  let ms = wall - offset(wall);
  ms = wall - offset(ms);
  return new Date(ms);
}
