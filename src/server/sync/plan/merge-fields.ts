import type { CalendarEvent } from '../calendar-target.port.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { withoutCheckmark } from './event-title.ts';
import { appearanceHash, eventWriteFor } from './event-write.ts';
import {
  CALENDAR,
  dueFromMeta,
  type EventAction,
  keep,
  type LinkPlan,
  type LinkValues,
  type Pair,
  type PlannedActivity,
  recordOnly,
  type TaskUpdate,
  TODOIST,
  taskMetaOf,
} from './link-plan.ts';
import { eventMinutes, lengthOnTask, taskMinutes, withTimeboxLabel } from './sync-scope.ts';
import { dueWhen, dueWriteForWhen, eventWhen, linkWhen, sameWhen, type When } from './timebox-when.ts';

/**
 * Field by field: title, start, length. Changed on one side: flows over. On both: the later change
 * wins. An echo of our own write equals the link and costs nothing. The start is a time or a whole day
 * (a dated task and its all-day event); a change between the two is a change of the start.
 */

/** One side of a pair as the link compares it. */
type Side = { titleHash: string; when: When; minutes: number };
type Winners = Record<'title' | 'start' | 'length', 'task' | 'event' | null>;

/** An open, timeboxed pair with both ids (the planner's dispatcher has ruled out every other case). */
export function mergeFields(pair: Pair, ids: { taskId: string; eventId: string }): LinkPlan | null {
  const { input, link, task, event } = pair;
  const { settings } = input;
  const taskSide = task && taskSideOf(pair, task);
  const eventSide = event && eventSideOf(pair, event);
  const from = winners(pair, taskSide, eventSide);
  const next: LinkValues = {
    ...keep(link),
    taskVersion: task?.updatedAt ?? link.taskVersion,
    eventVersion: event?.version ?? link.eventVersion,
    taskMeta: task ? taskMetaOf(task) : link.taskMeta,
    appearanceHash: appearanceHash(settings),
  };
  const eventDetails = takeFromTask(next, from, taskSide);
  const update: TaskUpdate = { action: 'update', taskId: ids.taskId };
  const taskDetails = giveToTask(pair, next, update, from, eventSide);
  // Settings restyle our events only; an event the user made keeps its own look.
  const restyle = link.origin === 'task' && link.appearanceHash !== appearanceHash(settings);
  if (eventDetails.length === 0 && restyle) eventDetails.push('settings');

  const events: EventAction[] = [];
  const activity: PlannedActivity[] = [];
  if (eventDetails.length > 0) {
    // The title the pair agrees on: the event's when it flows to the task, else the task's.
    const title =
      from.title === 'event' && event
        ? withoutCheckmark(event.title)
        : (task?.content ?? (event ? withoutCheckmark(event.title) : null));
    if (title !== null) {
      const write = eventWriteFor(
        settings,
        { id: ids.taskId, title },
        linkWhen(next),
        next.eventMinutes,
        link.marked,
        link.origin === 'task',
      );
      events.push({ action: 'update', eventId: ids.eventId, write });
      activity.push({ direction: TODOIST, action: 'updated', detail: eventDetails.join(',') });
    } else {
      // Neither side was read this run; keep the old fingerprint so a later run with the task applies it.
      next.appearanceHash = link.appearanceHash;
    }
  }
  const taskAction = taskDetails.length > 0 ? update : null;
  if (taskAction) activity.push({ direction: CALENDAR, action: 'updated', detail: taskDetails.join(',') });
  if (events.length === 0 && !taskAction) {
    const { taskVersion, eventVersion, taskMeta, appearanceHash: look } = next;
    return recordOnly(link, { taskVersion, eventVersion, taskMeta, appearanceHash: look });
  }
  return { link, events, task: taskAction, next, activity };
}

function taskSideOf({ input }: Pair, task: TaskSnapshot): Side {
  const { settings, hash } = input;
  const when = dueWhen(task.due, settings);
  const minutes = taskMinutes(task, settings);
  if (!when || minutes === null) throw new Error('only a timeboxed task is merged');
  return { titleHash: hash(task.content), when, minutes };
}

function eventSideOf({ input, link }: Pair, event: CalendarEvent): Side {
  const when = eventWhen(event, input.settings, link.allDay);
  if (!when) throw new Error('only an event with a time or a day is merged');
  return {
    titleHash: input.hash(withoutCheckmark(event.title)),
    when,
    // A whole day is no length: the pair's length stays as it was.
    minutes: when.allDay ? link.eventMinutes : eventMinutes(event),
  };
}

/** Which side each field comes from: the side that changed it, or on both the later change. */
function winners({ link, task, event }: Pair, taskSide?: Side, eventSide?: Side): Winners {
  const taskTime = task?.updatedAt ? Date.parse(task.updatedAt) : 0;
  const eventTime = event?.updatedAt?.getTime() ?? 0;
  const taskWins = taskTime >= eventTime;
  const pick = (changedOnTask: boolean, changedOnEvent: boolean) =>
    changedOnTask && (!changedOnEvent || taskWins) ? 'task' : changedOnEvent ? 'event' : null;
  const startOf = (side?: Side) => side !== undefined && !sameWhen(side.when, linkWhen(link));
  return {
    title: pick(
      taskSide !== undefined && taskSide.titleHash !== link.titleHash,
      eventSide !== undefined && eventSide.titleHash !== link.titleHash,
    ),
    start: pick(startOf(taskSide), startOf(eventSide)),
    length: pick(
      taskSide !== undefined && taskSide.minutes !== link.taskMinutes,
      eventSide !== undefined && eventSide.minutes !== link.eventMinutes,
    ),
  };
}

/** The fields that flow from the task to the event: recorded in `next`; answers what changed. */
function takeFromTask(next: LinkValues, from: Winners, taskSide?: Side): string[] {
  const details: string[] = [];
  if (!taskSide) return details;
  if (from.title === 'task') {
    next.titleHash = taskSide.titleHash;
    details.push('title');
  }
  if (from.start === 'task') {
    next.startAt = taskSide.when.start;
    next.allDay = taskSide.when.allDay;
    details.push('time');
  }
  if (from.length === 'task') {
    next.taskMinutes = taskSide.minutes;
    next.eventMinutes = taskSide.minutes;
    details.push('length');
  }
  return details;
}

/** The fields that flow from the event to the task: written into `update` and `next`; answers what changed. */
function giveToTask(
  { input, link, task, event }: Pair,
  next: LinkValues,
  update: TaskUpdate,
  from: Winners,
  eventSide?: Side,
): string[] {
  const { settings } = input;
  const details: string[] = [];
  if (event && eventSide && from.title === 'event') {
    next.titleHash = eventSide.titleHash;
    update.content = withoutCheckmark(event.title);
    details.push('title');
  }
  if (eventSide && from.start === 'event') {
    next.startAt = eventSide.when.start;
    next.allDay = eventSide.when.allDay;
    const previousDue = task?.due ?? dueFromMeta(next.taskMeta, link.startAt);
    update.due = dueWriteForWhen(eventSide.when, previousDue, settings.timeZone);
    details.push('time');
  }
  if (eventSide && from.length === 'event') {
    const length = lengthOnTask(eventSide.minutes, settings);
    next.eventMinutes = eventSide.minutes;
    if (length.minutes !== link.taskMinutes || length.duration !== null) {
      const labels = withTimeboxLabel(next.taskMeta.labels, settings, length.label);
      if (length.duration !== null) update.duration = { amount: length.duration, unit: 'minute' };
      else update.labels = labels;
      next.taskMinutes = length.minutes;
      next.taskMeta = { ...next.taskMeta, labels };
      details.push('length');
    }
  }
  if (task && input.relabelled?.has(task.id) && update.labels === undefined) {
    update.labels = [...next.taskMeta.labels];
    details.push('labels');
  }
  return details;
}
