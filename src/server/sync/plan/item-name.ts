import type { ItemName } from '#shared/api/activity-names.schema.ts';
import { PREVIEW_NAMED } from '#shared/api/sync.schema.ts';
import type { CalendarEvent } from '../calendar-target.port.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { dueWhen } from './due-time.ts';

/**
 * A task's or an event's title and time as the screens name it (docs/decisions/025): built from what
 * was just read, for one answer, never stored.
 */
export const taskName = (task: TaskSnapshot): ItemName => ({ title: task.content, when: dueWhen(task.due) });

export const eventName = (event: CalendarEvent): ItemName => ({
  title: event.title,
  when: event.date
    ? { kind: 'date', date: event.date }
    : event.start
      ? { kind: 'instant', start: event.start.toISOString() }
      : null,
});

/** When an item is, as text that sorts in time order (a floating time sorts as if it were UTC). */
const sortKey = ({ when }: ItemName) =>
  !when ? '~' : when.kind === 'instant' ? when.start : when.kind === 'floating' ? when.local : when.date;

/** The earliest few of `names`, for a preview's line: what a person looks for in it is what is soon. */
export function earliestNames(names: Iterable<ItemName | null>): ItemName[] {
  return [...names]
    .filter((name) => name !== null)
    .sort((a, b) => sortKey(a).localeCompare(sortKey(b)))
    .slice(0, PREVIEW_NAMED);
}
