import type { CalendarEvent } from '../calendar-target.port.ts';
import type { SyncLink } from '../sync-link.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { eventWriteFor, writeFromLink } from './event-write.ts';
import {
  drop,
  type EventAction,
  keep,
  type LinkPlan,
  type LinkValues,
  type PlanInput,
  type PlannedActivity,
  removeEvent,
  TODOIST,
  taskMetaOf,
} from './link-plan.ts';
import { newEventPlan } from './new-pair.ts';
import { taskMinutes } from './sync-scope.ts';
import { dueWhen, eventWhen, linkWhen, sameWhen } from './timebox-when.ts';

/**
 * Completion and recurrence: a task done or reopened, and a recurring task whose occurrence was done
 * (Todoist rolls the same task on to its next date).
 */

/** The task was completed or reopened since the last run (`task.checked` differs from the link's). */
export function completionChange(
  input: PlanInput,
  link: SyncLink,
  task: TaskSnapshot,
  event: CalendarEvent | undefined,
): LinkPlan | null {
  const base: LinkValues = {
    ...keep(link),
    taskVersion: task.updatedAt,
    eventVersion: event?.version ?? link.eventVersion,
    taskMeta: taskMetaOf(task),
  };
  return task.checked ? completed(input, link, task, base) : reopened(input, link, task, base);
}

function completed(input: PlanInput, link: SyncLink, task: TaskSnapshot, base: LinkValues): LinkPlan {
  const { settings } = input;
  const completedAt = task.completedAt ? new Date(task.completedAt) : input.now;
  const early = settings.onPreComplete && completedAt < link.startAt;
  const activity: PlannedActivity[] = [{ direction: TODOIST, action: 'completed', detail: null }];
  if (link.eventId && (early || settings.onComplete === 'remove')) {
    return {
      link,
      events: [{ action: 'remove', eventId: link.eventId }],
      task: null,
      next: { ...base, completed: true, eventId: null, eventVersion: null },
      activity,
    };
  }
  // The event stays: it shows the task as it was done, with a change made just before completing.
  const last = lastState(input, link, task);
  const changed =
    last.titleHash !== link.titleHash ||
    !sameWhen(last.when, linkWhen(link)) ||
    last.minutes !== link.eventMinutes;
  const marked = settings.onComplete === 'checkmark';
  if (!link.eventId || !(marked || changed)) {
    return { link, events: [], task: null, next: { ...base, completed: true }, activity };
  }
  const write = eventWriteFor(
    settings,
    { id: task.id, title: task.content },
    last.when,
    last.minutes,
    marked,
    link.origin === 'task',
  );
  return {
    link,
    events: [{ action: 'update', eventId: link.eventId, write }],
    task: null,
    next: {
      ...base,
      completed: true,
      marked,
      titleHash: last.titleHash,
      startAt: last.when.start,
      allDay: last.when.allDay,
      taskMinutes: last.minutes,
      eventMinutes: last.minutes,
    },
    activity,
  };
}

/** Reopened: undo what completion did. */
function reopened(input: PlanInput, link: SyncLink, task: TaskSnapshot, base: LinkValues): LinkPlan | null {
  const activity: PlannedActivity[] = [{ direction: TODOIST, action: 'updated', detail: 'uncompleted' }];
  const timeboxed = taskMinutes(task, input.settings) !== null;
  if (!link.eventId) return timeboxed ? { ...newEventPlan(input, task, link), activity } : drop(link);
  // Reopened, but no longer timeboxed (its label deleted or its setting removed while it was done): its
  // event goes, as an open task's does when it leaves the scope.
  if (!timeboxed) return removeEvent(link, { direction: TODOIST, action: 'deleted', detail: 'out-of-scope' });
  if (link.marked) {
    return {
      link,
      events: [{ action: 'update', eventId: link.eventId, write: writeFromLink(input, link, task, false) }],
      task: null,
      next: { ...base, completed: false, marked: false },
      activity,
    };
  }
  return { link, events: [], task: null, next: { ...base, completed: false }, activity };
}

/** The title, start and length a task had when it was completed (the link's, where it has none). */
function lastState(input: PlanInput, link: SyncLink, task: TaskSnapshot) {
  const { settings, hash } = input;
  return {
    titleHash: hash(task.content),
    when: dueWhen(task.due, settings) ?? linkWhen(link),
    minutes: taskMinutes(task, settings) ?? link.eventMinutes,
  };
}

/**
 * A recurring task whose due moved on because the user completed an occurrence (Todoist rolls the
 * same task to the next date). Todoist's webhook says so; without it (a lost notification) a due that
 * moved on after the linked occurrence had begun counts as completed, one that moved before it as
 * rescheduled. Either way the event was not moved by the user.
 */
export function isNextOccurrence(
  input: PlanInput,
  link: SyncLink,
  task: TaskSnapshot,
  event: CalendarEvent | undefined,
): boolean {
  if (!task.due?.isRecurring) return false;
  const when = dueWhen(task.due, input.settings);
  if (!when || when.start <= link.startAt) return false;
  if (!input.completedOccurrences.has(task.id) && link.startAt > input.now) return false;
  // The event was not moved by the user (or is no longer read as a timebox).
  const eventAt = event && eventWhen(event, input.settings, link.allDay);
  return !eventAt || sameWhen(eventAt, linkWhen(link));
}

/** The done occurrence's event is finished as the setting says, and the next occurrence gets one. */
export function nextOccurrence(input: PlanInput, link: SyncLink, task: TaskSnapshot): LinkPlan {
  const { settings } = input;
  const finished: EventAction[] = [];
  if (link.eventId && settings.onComplete === 'remove')
    finished.push({ action: 'remove', eventId: link.eventId });
  if (link.eventId && settings.onComplete === 'checkmark') {
    finished.push({ action: 'update', eventId: link.eventId, write: writeFromLink(input, link, task, true) });
  }
  const next = newEventPlan(input, task, link);
  return {
    ...next,
    events: [...finished, ...next.events],
    activity: [
      { direction: TODOIST, action: 'completed', detail: 'occurrence' },
      { direction: TODOIST, action: 'created', detail: 'next-occurrence' },
    ],
  };
}
