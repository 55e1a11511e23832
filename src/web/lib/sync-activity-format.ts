import type { SyncActivityEntry, SyncDirection } from '#shared/api/sync.schema.ts';
import { dayIn, formatInstant } from './date-time-format.ts';

/** Provider ids are long; lists show their start and keep the whole id for a tooltip. */
export function shortId(id: string, keep = 8): string {
  return id.length > keep + 1 ? `${id.slice(0, keep)}…` : id;
}

export const DIRECTION_SIDES: Record<SyncDirection, { from: string; to: string }> = {
  'todoist-to-calendar': { from: 'Todoist', to: 'Calendar' },
  'calendar-to-todoist': { from: 'Calendar', to: 'Todoist' },
};

/** Today's entries show the time to the second, so a change just made is easy to spot; older ones the day. */
export function formatActivityTime(iso: string, timeZone: string, now: Date = new Date(), locale?: string) {
  return dayIn(iso, timeZone) === dayIn(now, timeZone)
    ? formatInstant(iso, timeZone, 'timeWithSeconds', locale)
    : formatInstant(iso, timeZone, 'dayAndTime', locale);
}

/** The full date and time, for a tooltip. */
export function formatFullTime(iso: string, timeZone: string, locale?: string): string {
  return formatInstant(iso, timeZone, 'full', locale);
}

export function lastSyncedText(
  lastRunAt: string | null,
  timeZone: string,
  now: Date = new Date(),
  locale?: string,
): string {
  if (!lastRunAt) return 'Not synced yet.';
  if (dayIn(lastRunAt, timeZone) === dayIn(now, timeZone))
    return `Last synced at ${formatInstant(lastRunAt, timeZone, 'timeWithSeconds', locale)}.`;
  return `Last synced on ${formatInstant(lastRunAt, timeZone, 'dayWithYear', locale)} at ${formatInstant(lastRunAt, timeZone, 'time', locale)}.`;
}

/** The latest `limit` entries, newest first, whatever order they came in. */
export function latestEntries(entries: readonly SyncActivityEntry[], limit: number): SyncActivityEntry[] {
  return [...entries].sort((a, b) => Date.parse(b.at) - Date.parse(a.at)).slice(0, limit);
}
