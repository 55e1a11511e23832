import type { ActivityNames, ItemName } from '#shared/api/activity-names.schema.ts';
import type { SyncAction, SyncActivityEntry, SyncDirection } from '#shared/api/sync.schema.ts';
import { countOf } from '#shared/text/count-of.ts';

/**
 * The sync activity in plain words: a run's entries of the same kind as one line ("Created 3 events"),
 * each item by its name when Todoist or the calendar told us (names are read live, never stored).
 */

export type ActivityGroup = {
  key: string;
  at: string;
  direction: SyncDirection;
  action: SyncAction;
  detail: string | null;
  entries: SyncActivityEntry[];
};

/** Entries of one run (same time) with the same direction, action and detail, newest first, as groups. */
export function groupRuns(entries: readonly SyncActivityEntry[]): ActivityGroup[] {
  const groups: ActivityGroup[] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (
      last &&
      last.at === entry.at &&
      last.direction === entry.direction &&
      last.action === entry.action &&
      last.detail === entry.detail
    ) {
      last.entries.push(entry);
    } else {
      const { at, direction, action, detail } = entry;
      groups.push({ key: entry.id, at, direction, action, detail, entries: [entry] });
    }
  }
  return groups;
}

type Verb = (n: number) => string;
/** What each action did, by the side that was written: events for Todoist → Calendar, tasks the other way. */
const TO_CALENDAR: Record<SyncAction, Verb> = {
  created: (n) => `Created ${countOf(n, 'event')}`,
  updated: (n) => `Updated ${countOf(n, 'event')}`,
  completed: (n) => `Marked ${countOf(n, 'event')} done`,
  deleted: (n) => `Removed ${countOf(n, 'event')}`,
  skipped: (n) => `Did not write ${countOf(n, 'event')}`,
  held: (n) => `Held back removing ${countOf(n, 'event')}`,
  kept: (n) =>
    `Stopped syncing ${countOf(n, 'task')} and ${n === 1 ? 'its event' : 'their events'}, both kept`,
};
const TO_TODOIST: Record<SyncAction, Verb> = {
  created: (n) => `Created ${countOf(n, 'task')}`,
  updated: (n) => `Updated ${countOf(n, 'task')}`,
  completed: (n) => `Completed ${countOf(n, 'task')}`,
  deleted: (n) => `Deleted ${countOf(n, 'task')}`,
  skipped: (n) => `Did not write ${countOf(n, 'task')}`,
  held: (n) => `Held back deleting or unscheduling ${countOf(n, 'task')}`,
  kept: (n) => `Stopped syncing ${countOf(n, 'task')}, both sides kept`,
};

/** Why, or what changed, by the engine's short codes (comma-separated for field changes). */
const DETAIL_WORDS: Record<string, string> = {
  title: 'title',
  time: 'time',
  length: 'length',
  duration: 'length',
  labels: 'labels',
  uncompleted: 'the task was reopened',
  'out-of-scope': 'the task no longer syncs: its timebox label or project changed',
  released: 'you chose Remove',
  refused: 'the provider refused it; it is tried again later, or at once when you change it',
  'left-in-previous-calendar': 'left in the calendar you used before',
  'event-deleted': 'its event was deleted, so the time and timebox label came off',
  occurrence: 'one occurrence of a recurring task',
  'next-occurrence': 'the next occurrence',
  'no-timebox-label': 'no timebox label',
};

/** The detail code as words: field changes as a list ("title and time"), reasons as a phrase. */
export function detailWords(detail: string | null): string | null {
  if (!detail) return null;
  const words = detail
    .split(',')
    .filter(Boolean)
    .map((code) => DETAIL_WORDS[code] ?? code.replaceAll(/[-_]+/g, ' ').trim());
  if (words.length <= 1) return words[0] ?? null;
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** "Created 3 events", "Updated 1 task (title and time)". */
export function groupHeadline(group: Pick<ActivityGroup, 'direction' | 'action' | 'detail' | 'entries'>) {
  const verbs = group.direction === 'todoist-to-calendar' ? TO_CALENDAR : TO_TODOIST;
  return verbs[group.action](group.entries.length);
}

export type NamedItem = {
  /** The title read live, or the words for an item gone; null while unknown (shown by its id). */
  title: string | null;
  /** True when the item no longer exists ("a deleted task"). */
  gone: boolean;
  when: ItemName['when'];
};

/** The ✓ the sync puts before a done task's event title is not part of its name. */
const withoutDoneMark = (title: string) => title.replace(/^✓\s*/, '');

/**
 * An entry's item by name: the task's title (the event mirrors it), else the event's; an item gone
 * reads "a deleted task" / "a completed task" / "a deleted event"; unknown while the names are not
 * there (not read yet, or that side could not be read).
 */
export function namedItem(
  entry: Pick<SyncActivityEntry, 'taskId' | 'eventId' | 'action'>,
  names: ActivityNames | undefined,
): NamedItem {
  const task = entry.taskId ? names?.tasks[entry.taskId] : undefined;
  const event = entry.eventId ? names?.events[entry.eventId] : undefined;
  if (task) return { title: task.title, gone: false, when: task.when ?? event?.when ?? null };
  if (event) return { title: withoutDoneMark(event.title), gone: false, when: event.when };
  if (task === null) {
    return {
      title: entry.action === 'completed' ? 'a completed task' : 'a deleted task',
      gone: true,
      when: null,
    };
  }
  if (event === null && !entry.taskId) return { title: 'a deleted event', gone: true, when: null };
  return { title: null, gone: false, when: null };
}

/** The ids behind an entry, for support: "Task 6QaAhnJS… · Event 59d43a3a…". */
export function idsText(entry: Pick<SyncActivityEntry, 'taskId' | 'eventId'>): string {
  return [entry.taskId && `Todoist task ${entry.taskId}`, entry.eventId && `calendar event ${entry.eventId}`]
    .filter(Boolean)
    .join(', ');
}
