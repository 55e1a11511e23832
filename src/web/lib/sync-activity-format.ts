import { format, isSameDay } from 'date-fns';
import type { SyncActivityEntry, SyncDirection } from '#shared/api/sync.schema.ts';

/** Provider ids are long; lists show their start and keep the whole id for a tooltip. */
export function shortId(id: string, keep = 8): string {
  return id.length > keep + 1 ? `${id.slice(0, keep)}…` : id;
}

export const DIRECTION_SIDES: Record<SyncDirection, { from: string; to: string }> = {
  'todoist-to-calendar': { from: 'Todoist', to: 'Calendar' },
  'calendar-to-todoist': { from: 'Calendar', to: 'Todoist' },
};

/** Today's entries show the time to the second, so a change just made is easy to spot; older ones the day. */
export function formatActivityTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  return isSameDay(at, now) ? format(at, 'HH:mm:ss') : format(at, 'd MMM, HH:mm');
}

/** The full local date and time, for a tooltip. */
export function formatFullTime(iso: string): string {
  return format(new Date(iso), 'EEEE d MMMM yyyy, HH:mm:ss');
}

export function lastSyncedText(lastRunAt: string | null, now: Date = new Date()): string {
  if (!lastRunAt) return 'Not synced yet.';
  const at = new Date(lastRunAt);
  return isSameDay(at, now)
    ? `Last synced at ${format(at, 'HH:mm:ss')}.`
    : `Last synced on ${format(at, 'd MMM yyyy')} at ${format(at, 'HH:mm')}.`;
}

/** The latest `limit` entries, newest first, whatever order they came in. */
export function latestEntries(entries: readonly SyncActivityEntry[], limit: number): SyncActivityEntry[] {
  return [...entries].sort((a, b) => Date.parse(b.at) - Date.parse(a.at)).slice(0, limit);
}
