import type { ItemName } from '#shared/api/activity-names.schema.ts';
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
