import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { useAuth } from './current-user.ts';

/**
 * The one zone every time of a screen is shown in (docs/product-rules.md §2 "One clock"): the user's.
 * That is the Todoist account's, where due times and Plan my day's hours are read; else the calendar
 * account's (the chosen calendar's zone, else its main calendar's); else this browser's. Floating
 * Todoist times are shown as their wall time and marked, whatever the zone.
 */
export type DisplayZone = { timeZone: string; source: 'calendar' | 'todoist' | 'browser' };

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The zone, when the browser knows it by that name. */
function known(zone: string | null | undefined): string | null {
  if (!zone) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}

/** The calendar account's zone: the chosen calendar's, else its main calendar's; null when unknown. */
export function calendarTimeZone(user: CurrentUser): string | null {
  const { calendars, calendarId, connected } = user.calendarSettings;
  if (!connected) return null;
  const chosen = calendars.find((calendar) => calendar.id === calendarId);
  const main = calendars.find((calendar) => calendar.primary);
  return known(chosen?.timeZone) ?? known(main?.timeZone);
}

export const todoistTimeZone = (user: CurrentUser): string | null =>
  user.todoSettings.connected ? known(user.todoSettings.timezone?.timezone) : null;

export function displayZone(user: CurrentUser | false | null, browser = browserTimeZone()): DisplayZone {
  if (user) {
    const todoist = todoistTimeZone(user);
    if (todoist) return { timeZone: todoist, source: 'todoist' };
    const calendar = calendarTimeZone(user);
    if (calendar) return { timeZone: calendar, source: 'calendar' };
  }
  return { timeZone: browser, source: 'browser' };
}

const SOURCES: Record<DisplayZone['source'], string> = {
  calendar: 'your calendar’s time zone',
  todoist: 'your Todoist time zone',
  browser: 'this browser’s time zone',
};

/** "Times are in Europe/Berlin, your calendar’s time zone.": said once on each page that shows times. */
export const zoneLabel = (zone: DisplayZone) => `Times are in ${zone.timeZone}, ${SOURCES[zone.source]}.`;

/** The Todoist zone and the calendar's, when both are known and they differ (floating tasks shift). */
export function zonesDiffer(user: CurrentUser): { todoist: string; calendar: string } | null {
  const todoist = todoistTimeZone(user);
  const calendar = calendarTimeZone(user);
  if (!todoist || !calendar || sameOffsetsAlways(todoist, calendar)) return null;
  return { todoist, calendar };
}

/** Two names of one zone ("UTC", "Etc/UTC") are not a difference: they agree at both solstices. */
function sameOffsetsAlways(a: string, b: string): boolean {
  if (a === b) return true;
  const year = new Date().getUTCFullYear();
  return [Date.UTC(year, 0, 15, 12), Date.UTC(year, 6, 15, 12)].every(
    (at) => offsetMinutes(a, at) === offsetMinutes(b, at),
  );
}

/** The zone's offset from UTC at `at`, in minutes. */
export function offsetMinutes(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((each) => each.type === type)?.value ?? 0);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  return Math.round((wall - Math.floor(at / 60_000) * 60_000) / 60_000);
}

/** The zone of the signed-in user's screens. */
export function useDisplayZone(): DisplayZone {
  return displayZone(useAuth());
}
