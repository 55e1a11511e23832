import type { CalendarEvent } from '../calendar-target.port.ts';
import type { TaskSnapshot } from '../task-source.port.ts';

/** A task of which nothing is known but its id and `fields`. */
export function blankTask(id: string, fields: Partial<TaskSnapshot> = {}): TaskSnapshot {
  return {
    id,
    content: '',
    description: '',
    labels: [],
    projectId: null,
    due: null,
    duration: null,
    checked: false,
    priority: 1,
    order: 0,
    completedAt: null,
    isDeleted: false,
    updatedAt: null,
    ...fields,
  };
}

/** A task known only to be gone (deleted, or no longer readable). */
export const deletedTask = (id: string): TaskSnapshot => blankTask(id, { isDeleted: true });

/** An event of which nothing is known but its id and `fields`. */
export function blankEvent(id: string, fields: Partial<CalendarEvent> = {}): CalendarEvent {
  return {
    id,
    deleted: false,
    title: '',
    start: null,
    end: null,
    allDay: false,
    date: null,
    busy: true,
    recurring: false,
    color: null,
    categories: [],
    taskTag: null,
    otherSync: null,
    version: '',
    updatedAt: null,
    ...fields,
  };
}

/** An event known only to be gone (cancelled, or missing from a full read). */
export const deletedEvent = (id: string): CalendarEvent => blankEvent(id, { deleted: true });
