import type { CalendarEvent } from '../calendar-target.port.ts';
import type { SyncLink } from '../sync-link.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { dateOnlyDue } from './due-time.ts';
import {
  CALENDAR,
  drop,
  keep,
  type LinkPlan,
  type Pair,
  type PlanInput,
  type TaskAction,
  TODOIST,
  taskMetaOf,
} from './link-plan.ts';
import { taskMinutes, withTimeboxLabel } from './sync-scope.ts';
import { dueWhen, eventWhen } from './timebox-when.ts';

/**
 * The pair's event is gone (deleted) or no longer a timebox (made all-day, where dated tasks are left
 * alone). Undefined: the event (if read) is still there.
 */
export function eventGonePlan({ input, link, task, event }: Pair): LinkPlan | undefined {
  if (!event || eventWhen(event, input.settings, link.allDay) !== null) return undefined;
  // The task left the scope (its timebox label or time taken off) and its event is gone: our removal
  // whose answer was lost, or the user's. Either way the pair is over, and the task stays as the user
  // left it; taken for a deletion of the event, it would lose its time, or be deleted with the event.
  if (event.deleted && task && !task.checked && taskMinutes(task, input.settings) === null) return drop(link);
  if (event.deleted && task?.checked && !link.completed) return doneWithoutEvent(link, task);
  return eventGone(input, link, task, event);
}

/**
 * Done, and its event gone before a run saw the completion: our removal (the setting removes done
 * tasks' events) whose answer was lost, or the user's. A done task is left as it is; taken for a
 * deletion of the event, it would lose its time, or be deleted with the event. Remembered as done
 * without an event, as after the removal: reopened, it gets a new one.
 */
function doneWithoutEvent(link: SyncLink, task: TaskSnapshot): LinkPlan {
  return {
    link,
    events: [],
    task: null,
    next: {
      ...keep(link),
      completed: true,
      eventId: null,
      eventVersion: null,
      taskVersion: task.updatedAt,
      taskMeta: taskMetaOf(task),
    },
    activity: [{ direction: TODOIST, action: 'completed', detail: null }],
  };
}

/** The user deleted the event (or made it all-day): nothing the user wrote may be lost. */
function eventGone(
  input: PlanInput,
  link: SyncLink,
  task: TaskSnapshot | undefined,
  event: CalendarEvent,
): LinkPlan {
  const { settings } = input;
  if (!link.taskId || link.completed) return drop(link);
  // Deleted: the task the event made goes with it. Made all-day: the event lives on, so its task
  // stays too, without a time, like a task that existed first.
  if (link.origin === 'event' && event.deleted) {
    return {
      link,
      events: [],
      task: { action: 'delete', taskId: link.taskId },
      next: null,
      activity: [{ direction: CALENDAR, action: 'deleted', detail: null }],
    };
  }
  // A task that existed first loses its timebox (label and time) and keeps its date.
  const meta = task ? taskMetaOf(task) : link.taskMeta;
  const start = (task && dueWhen(task.due, settings)?.start) || link.startAt;
  const untimeboxed: TaskAction = {
    action: 'update',
    taskId: link.taskId,
    labels: withTimeboxLabel(meta.labels, settings, null),
    // A recurring task keeps its rule: its next occurrences are not the deleted event's business.
    ...(meta.recurrence ? {} : { due: dateOnlyDue(start, settings.timeZone) }),
    ...(settings.taskDuration.active && settings.taskDuration.allowed ? { duration: null } : {}),
  };
  return {
    link,
    events: [],
    task: untimeboxed,
    next: null,
    activity: [{ direction: CALENDAR, action: 'updated', detail: 'event-deleted' }],
  };
}
