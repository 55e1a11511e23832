import type { CalendarEvent } from '../calendar-target.port.ts';
import { NO_REFUSAL, type SyncLink } from '../sync-link.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { dueWriteFor } from './due-time.ts';
import { withoutCheckmark } from './event-title.ts';
import { appearanceHash, eventWriteFor } from './event-write.ts';
import { CALENDAR, type LinkPlan, type PlanInput, TODOIST, taskMetaOf } from './link-plan.ts';
import { eventMinutes, lengthOnTask, newTaskProject, taskTimebox } from './sync-scope.ts';

/**
 * A timeboxed task gets an event: seen for the first time, or again in scope after its event went (with
 * `link`, the pair goes on under its next generation).
 */
export function newEventPlan(input: PlanInput, task: TaskSnapshot, link: SyncLink | null = null): LinkPlan {
  const { settings, hash } = input;
  const { when, minutes } = taskTimebox(task, settings);
  return {
    link,
    events: [
      {
        action: 'create',
        write: eventWriteFor(settings, { id: task.id, title: task.content }, when, minutes, false),
      },
    ],
    task: null,
    next: {
      taskId: task.id,
      eventId: null,
      calendarId: settings.calendarId,
      origin: link?.origin ?? 'task',
      generation: (link?.generation ?? -1) + 1,
      taskVersion: task.updatedAt,
      eventVersion: null,
      titleHash: hash(task.content),
      startAt: when.start,
      allDay: when.allDay,
      taskMinutes: minutes,
      eventMinutes: minutes,
      completed: false,
      marked: false,
      appearanceHash: appearanceHash(settings),
      taskMeta: taskMetaOf(task),
      ...NO_REFUSAL,
    },
    activity: [{ direction: TODOIST, action: 'created', detail: null }],
  };
}

/** An event the user made, in scope: it becomes a task (or resumes the create a crash interrupted). */
export function newTaskPlan(input: PlanInput, event: CalendarEvent, link: SyncLink | null): LinkPlan {
  const { settings, hash } = input;
  const start = event.start;
  if (!start) throw new Error('an event without a start makes no task');
  const minutes = eventMinutes(event);
  const length = lengthOnTask(minutes, settings);
  const labels = length.label ? [length.label] : [];
  return {
    link,
    events: [],
    task: {
      action: 'create',
      content: withoutCheckmark(event.title),
      due: dueWriteFor(start, null, settings.timeZone),
      labels,
      duration: length.duration === null ? null : { amount: length.duration, unit: 'minute' },
      ...projectOf(settings),
    },
    next: {
      taskId: null,
      eventId: event.id,
      calendarId: settings.calendarId,
      origin: 'event',
      generation: link?.generation ?? 0,
      taskVersion: null,
      eventVersion: event.version,
      titleHash: hash(withoutCheckmark(event.title)),
      startAt: start,
      allDay: false,
      taskMinutes: length.minutes,
      eventMinutes: minutes,
      completed: false,
      marked: false,
      appearanceHash: appearanceHash(settings),
      taskMeta: { labels, dueTimezone: null, recurrence: null },
      ...NO_REFUSAL,
      // A repeated create (same command uuid) gets the task Todoist made the first time, as it was
      // then: the link stays as first recorded, so an event changed since is seen as changed and the
      // change goes on to the task.
      ...(link && {
        eventVersion: link.eventVersion,
        titleHash: link.titleHash,
        startAt: link.startAt,
        taskMinutes: link.taskMinutes,
        eventMinutes: link.eventMinutes,
        taskMeta: link.taskMeta,
      }),
    },
    activity: [{ direction: CALENDAR, action: 'created', detail: null }],
  };
}

/** A task made from an event goes to the project chosen for them, while it syncs (see `newTaskProject`). */
function projectOf(settings: PlanInput['settings']): { projectId?: string } {
  const projectId = newTaskProject(settings);
  return projectId ? { projectId } : {};
}
