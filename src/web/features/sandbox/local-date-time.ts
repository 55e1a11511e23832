import { TZDate } from '@date-fns/tz';
import { dayIn, formatInstant, formatWallTime } from '../../lib/date-time-format.ts';

/**
 * The console's date and time inputs and lists, in the page's one zone (`lib/time-zone.ts`): what is
 * typed as 10:00 is shown as 10:00. `<input type="datetime-local">` speaks 'YYYY-MM-DDTHH:mm'; the API
 * speaks ISO instants, and Todoist a floating time as its wall time.
 */

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/;
/** A time that names its instant ('Z' or an offset); one without is a floating Todoist time. */
const FIXED = /(?:Z|[+-]\d{2}:?\d{2})$/i;

export const isFloating = (datetime: string) => WALL.test(datetime) && !FIXED.test(datetime);

/** An input's value: the wall time of the instant in the zone (a floating time as it is). */
export function toLocalInput(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  if (isFloating(iso)) return iso.slice(0, 16);
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${dayIn(at, timeZone)}T${formatInstant(at, timeZone, 'time', 'en-GB')}`;
}

/** The instant an input's wall time stands for in the zone; undefined when empty or no time. */
export function fromLocalInput(value: string, timeZone: string): string | undefined {
  const match = WALL.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi] = match.map(Number) as number[];
  const at = new TZDate(y as number, (mo as number) - 1, d as number, h as number, mi as number, timeZone);
  return Number.isNaN(at.getTime()) ? undefined : new Date(at.getTime()).toISOString();
}

/** A task's due time for the list: a fixed one in the zone, a floating one as written and marked. */
export function formatDueTime(datetime: string, timeZone: string): string {
  return isFloating(datetime) ? `${formatWallTime(datetime)}, floating` : formatInstant(datetime, timeZone);
}

/** A calendar day as `<input type="date">` and Todoist's date-only due both speak it: 'YYYY-MM-DD'. */
function isDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as number[];
  const day = new Date(Date.UTC(y as number, (m as number) - 1, d));
  return day.getUTCMonth() === (m as number) - 1 && day.getUTCDate() === d;
}

/** The day a date input sends, or undefined when it is empty or no real day. */
export function fromDateInput(value: string): string | undefined {
  return isDay(value) ? value : undefined;
}

/** A date input's value from a task's due: its day when it has a date but no time, else ''. */
export function toDateInput(due: { date: string; datetime: string | null } | null | undefined): string {
  return due && !due.datetime && isDay(due.date) ? due.date : '';
}

/** The day of a `datetime-local` value ('' when there is none), as a date input takes it. */
export function dayOfLocalInput(value: string): string {
  return isDay(value.slice(0, 10)) ? value.slice(0, 10) : '';
}
