import type { ItemWhen } from '#shared/api/activity-names.schema.ts';

/**
 * The web app's one date and time formatter (docs/product-rules.md §2 "One clock"): the browser's
 * locale (Intl), in the zone the page shows times in (`lib/time-zone.ts`). "Thu, Dec 3, 10:00 AM" in
 * English, "Do., 3. Dez., 10:00" in German. A floating Todoist time is its wall time, the same in every
 * zone, and says so. `locale` is for tests; the app passes none.
 */

type Style = 'dayAndTime' | 'time' | 'timeWithSeconds' | 'full' | 'day' | 'dayWithYear';

const STYLES: Record<Style, Intl.DateTimeFormatOptions> = {
  dayAndTime: { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  time: { hour: 'numeric', minute: '2-digit' },
  timeWithSeconds: { hour: 'numeric', minute: '2-digit', second: '2-digit' },
  full: {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  },
  day: { weekday: 'short', month: 'short', day: 'numeric' },
  dayWithYear: { month: 'short', day: 'numeric', year: 'numeric' },
};

const cache = new Map<string, Intl.DateTimeFormat>();

/** A 24-hour locale writes hours with two digits ("09:00", as its clocks do); a 12-hour one "9:00 AM". */
const twoDigitHours = (locale?: string) => {
  const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h23' || cycle === 'h24';
};

function formatter(style: Style, timeZone: string, locale?: string): Intl.DateTimeFormat {
  const key = `${style} ${timeZone} ${locale ?? ''}`;
  let made = cache.get(key);
  if (!made) {
    const options = STYLES[style];
    const hour = options.hour && twoDigitHours(locale) ? '2-digit' : options.hour;
    made = new Intl.DateTimeFormat(locale, { ...options, ...(hour && { hour }), timeZone });
    cache.set(key, made);
  }
  return made;
}

/** An instant in the zone: "Thu, Dec 3, 10:00 AM" (`dayAndTime`), "10:00 AM" (`time`), and so on. */
export function formatInstant(
  iso: string | Date,
  timeZone: string,
  style: Style = 'dayAndTime',
  locale?: string,
) {
  return formatter(style, timeZone, locale).format(typeof iso === 'string' ? new Date(iso) : iso);
}

/** A calendar day (`YYYY-MM-DD`), the same in every zone: "Thu, Dec 3". */
export function formatDay(date: string, locale?: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  if (!year || !month || !day) return date;
  return formatter('day', 'UTC', locale).format(new Date(Date.UTC(year, month - 1, day, 12)));
}

/** A wall time (`YYYY-MM-DDTHH:MM`, a floating Todoist time) as written, in no zone: "Thu, Dec 3, 9:00 AM". */
export function formatWallTime(local: string, locale?: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (!match) return local;
  const [, y, mo, d, h, mi] = match.map(Number) as number[];
  const wall = new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi));
  return formatter('dayAndTime', 'UTC', locale).format(wall);
}

/** The day of an instant in the zone, `YYYY-MM-DD`. */
export function dayIn(iso: string | Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(typeof iso === 'string' ? new Date(iso) : iso);
}

/** When a task or event is, as the activity and the safety brake show it. */
export function formatWhen(when: ItemWhen, timeZone: string, locale?: string): string {
  switch (when.kind) {
    case 'instant':
      return formatInstant(when.start, timeZone, 'dayAndTime', locale);
    case 'floating':
      return `${formatWallTime(when.local, locale)}, floating`;
    case 'date':
      return formatDay(when.date, locale);
  }
}
