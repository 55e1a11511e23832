import type { CalendarEvent } from '../calendar-target.port.ts';
import type { TaskSnapshot } from '../task-source.port.ts';

/** A task known only to be gone (deleted, or no longer readable). */
export function deletedTask(id: string): TaskSnapshot {
  return {
    id,
    content: '',
    description: '',
    labels: [],
    due: null,
    duration: null,
    checked: false,
    completedAt: null,
    isDeleted: true,
    updatedAt: null,
  };
}

/** An event known only to be gone (cancelled, or missing from a full read). */
export function deletedEvent(id: string): CalendarEvent {
  return {
    id,
    deleted: true,
    title: '',
    start: null,
    end: null,
    allDay: false,
    recurring: false,
    color: null,
    categories: [],
    taskTag: null,
    version: '',
    updatedAt: null,
  };
}
