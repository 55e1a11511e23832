import type { SyncAction, SyncDirection } from '#shared/api/sync.schema.ts';
import type { CalendarEvent, EventWrite } from '../calendar-target.port.ts';
import type { LinkTaskMeta, SyncLink } from '../sync-link.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { DueWrite, TaskDue, TaskSnapshot } from '../task-source.port.ts';
import { dateOnlyDue, dueInstant, dueWriteFor } from './due-time.ts';
import { eventTitle, type TitleHasher, withoutCheckmark } from './event-title.ts';
import {
  eventMinutes,
  eventWanted,
  lengthOnTask,
  taskMinutes,
  taskWanted,
  withTimeboxLabel,
} from './sync-scope.ts';

/**
 * The pure heart of the sync: from the changes read on both sides and the link rows, decide what to
 * write. No I/O; the engine reads, asks here, and executes the plans (see sync-engine.ts).
 *
 * Rules (docs/product-rules.md §10): a field changed on one side flows to the other; changed on both, the
 * later change wins; an echo of our own write differs from nothing and costs no write.
 */

export type EventAction =
  /** `discard`: the event is removed right after; see `discardPending`. */
  | { action: 'create'; write: EventWrite; discard?: boolean }
  | { action: 'update'; eventId: string; write: EventWrite }
  | { action: 'remove'; eventId: string };

export type TaskAction =
  | {
      action: 'create';
      content: string;
      due: DueWrite;
      labels: string[];
      duration: { amount: number; unit: 'minute' } | null;
      /** The task is deleted right after; see `discardPendingTask`. */
      discard?: boolean;
    }
  | {
      action: 'update';
      taskId: string;
      content?: string;
      due?: DueWrite;
      labels?: string[];
      duration?: { amount: number; unit: 'minute' } | null;
    }
  | { action: 'delete'; taskId: string };

export type PlannedActivity = { direction: SyncDirection; action: SyncAction; detail: string | null };

/** The values a link keeps after the plan ran; ids of created things are filled in by the engine. */
export type LinkValues = Omit<SyncLink, 'id' | 'pendingKey'>;

export type LinkPlan = {
  /** The existing link, or null for a new pair. */
  link: SyncLink | null;
  /** At most one create, and it is the last event action (it receives the new event id). */
  events: EventAction[];
  task: TaskAction | null;
  /** Null: the pair is over and the link row goes. */
  next: LinkValues | null;
  activity: PlannedActivity[];
};

export type PlanInput = {
  settings: SyncSettings;
  now: Date;
  hash: TitleHasher;
  links: SyncLink[];
  /** Tasks read since the last run (all active tasks after a full read). */
  tasks: TaskSnapshot[];
  /** Events read since the last run (all events after a full read). */
  events: CalendarEvent[];
  /** Recurring tasks whose occurrence Todoist's webhook says was completed since the last run. */
  completedOccurrences: ReadonlySet<string>;
  /**
   * Tasks the run read with a label under its name from before a rename it followed (see
   * `withRenamedTaskLabels`), already matched by the new name: task id → the labels to write back.
   */
  relabelled?: ReadonlyMap<string, readonly string[]>;
};

const TODOIST = 'todoist-to-calendar' as const;
const CALENDAR = 'calendar-to-todoist' as const;
const TASK_URL = (taskId: string) => `https://app.todoist.com/app/task/${taskId}`;

/** Fingerprint of the settings that shape every event we write. */
export function appearanceHash(settings: SyncSettings): string {
  const { calendarProvider, color, category, reminder, linkDescription } = settings;
  return JSON.stringify([calendarProvider, color, category, settings.private, reminder, linkDescription]);
}

export function eventWriteFor(
  settings: SyncSettings,
  task: { id: string; title: string },
  start: Date,
  minutes: number,
  marked: boolean,
  appearance = true,
): EventWrite {
  return {
    appearance,
    title: eventTitle(task.title, marked),
    start,
    end: new Date(start.getTime() + minutes * 60_000),
    timeZone: settings.timeZone,
    color: settings.color,
    category: settings.category,
    private: settings.private,
    reminderMinutes: settings.reminder,
    description: settings.linkDescription ? TASK_URL(task.id) : null,
    taskId: task.id,
  };
}

const taskMetaOf = (task: TaskSnapshot): LinkTaskMeta => ({
  labels: [...task.labels],
  dueTimezone: task.due?.timezone ?? null,
  recurrence: task.due?.isRecurring ? task.due.string : null,
});

const dueFromMeta = (meta: LinkTaskMeta, start: Date): TaskDue => ({
  date: start.toISOString(),
  timezone: meta.dueTimezone,
  isRecurring: meta.recurrence !== null,
  string: meta.recurrence ?? '',
});

export function planSync(input: PlanInput): LinkPlan[] {
  const { links, settings, now } = input;
  const byTask = new Map(links.filter((l) => l.taskId).map((l) => [l.taskId as string, l]));
  const byEvent = new Map(links.filter((l) => l.eventId).map((l) => [l.eventId as string, l]));
  const eventsById = new Map(input.events.map((event) => [event.id, event]));
  const seenEvents = new Set<string>();
  const plans: LinkPlan[] = [];
  const push = (plan: LinkPlan | null) => {
    if (plan) plans.push(plan);
  };

  for (const task of input.tasks) {
    const link = byTask.get(task.id);
    if (!link) {
      if (taskWanted(task, settings, now)) push(newEventPlan(input, task));
      continue;
    }
    const event = link.eventId ? eventsById.get(link.eventId) : undefined;
    if (event) seenEvents.add(event.id);
    push(resolvePair(input, link, task, event));
  }

  for (const event of input.events) {
    if (seenEvents.has(event.id)) continue;
    const link = byEvent.get(event.id);
    if (link) {
      push(resolvePair(input, link, undefined, event));
    } else if (event.taskTag === null) {
      // A task made from this event but not yet recorded (a crash between Todoist's write and ours)
      // has a pending link keyed by the event: resolvePair resumes it with the same command uuid.
      if (eventWanted(event, settings, now)) push(newTaskPlan(input, event, null));
    }
  }
  return plans;
}

/** A task seen for the first time that is timeboxed: it gets an event. */
function newEventPlan(input: PlanInput, task: TaskSnapshot, link: SyncLink | null = null): LinkPlan {
  const { settings, hash } = input;
  const start = dueInstant(task.due, settings.timeZone) as Date;
  const minutes = taskMinutes(task, settings) as number;
  return {
    link,
    events: [
      {
        action: 'create',
        write: eventWriteFor(settings, { id: task.id, title: task.content }, start, minutes, false),
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
      startAt: start,
      taskMinutes: minutes,
      eventMinutes: minutes,
      completed: false,
      marked: false,
      appearanceHash: appearanceHash(settings),
      taskMeta: taskMetaOf(task),
    },
    activity: [{ direction: TODOIST, action: 'created', detail: null }],
  };
}

/** An event the user made, in scope: it becomes a task (or resumes the create a crash interrupted). */
function newTaskPlan(input: PlanInput, event: CalendarEvent, link: SyncLink | null): LinkPlan {
  const { settings, hash } = input;
  const start = event.start as Date;
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
      taskMinutes: length.minutes,
      eventMinutes: minutes,
      completed: false,
      marked: false,
      appearanceHash: appearanceHash(settings),
      taskMeta: { labels, dueTimezone: null, recurrence: null },
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

const keep = (link: SyncLink): LinkValues => {
  const { id: _id, pendingKey: _pending, ...values } = link;
  return values;
};

function resolvePair(
  input: PlanInput,
  link: SyncLink,
  task: TaskSnapshot | undefined,
  event: CalendarEvent | undefined,
): LinkPlan | null {
  const { settings, now } = input;

  // A create a crashed run left unfinished: repeat it with the same idempotency key.
  if (link.pendingKey && link.taskId === null) {
    if (!event || event.deleted || !event.start) return discardPendingTask(input, link);
    return newTaskPlan(input, event, link);
  }
  if (link.pendingKey && link.eventId === null && !link.completed) {
    if (!task) return null;
    if (!taskWanted(task, settings, now)) return discardPending(input, link, task);
    const plan = newEventPlan(input, task, link);
    return plan.next ? { ...plan, next: { ...plan.next, generation: link.generation } } : plan;
  }

  if (task?.isDeleted) {
    return {
      link,
      events: link.eventId ? [{ action: 'remove', eventId: link.eventId }] : [],
      task: null,
      next: null,
      activity: [{ direction: TODOIST, action: 'deleted', detail: null }],
    };
  }

  // The task left the scope (its timebox label or time taken off) and its event is gone: our removal
  // whose answer was lost, or the user's. Either way the pair is over, and the task stays as the user
  // left it; taken for a deletion of the event, it would lose its time, or be deleted with the event.
  if (event?.deleted && task && !task.checked && taskMinutes(task, settings) === null) return drop(link, []);
  // Done, and its event gone before a run saw the completion: our removal (the setting removes done
  // tasks' events) whose answer was lost, or the user's. A done task is left as it is; taken for a
  // deletion of the event, it would lose its time, or be deleted with the event. Remembered as done
  // without an event, as after the removal: reopened, it gets a new one.
  if (event?.deleted && task?.checked && !link.completed) {
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
  if (event && (event.deleted || event.allDay || !event.start)) return eventGone(input, link, task, event);

  if (task && task.checked !== link.completed) return completionChange(input, link, task, event);
  if (link.completed) {
    // A done task's event is left as the setting made it; only versions move on.
    return record(link, {
      taskVersion: task?.updatedAt ?? link.taskVersion,
      eventVersion: event?.version ?? link.eventVersion,
    });
  }

  if (task && taskMinutes(task, settings) === null) {
    return {
      link,
      events: link.eventId ? [{ action: 'remove', eventId: link.eventId }] : [],
      task: null,
      next: null,
      activity: [{ direction: TODOIST, action: 'deleted', detail: 'out-of-scope' }],
    };
  }

  if (task && link.eventId && isNextOccurrence(input, link, task, event))
    return nextOccurrence(input, link, task);

  if (!link.eventId) {
    // The event went with a completion; the task is open and in scope again: make a new one.
    return task
      ? {
          ...newEventPlan(input, task, link),
          activity: [{ direction: TODOIST, action: 'created', detail: null }],
        }
      : null;
  }
  return mergeFields(input, link, task, event);
}

/**
 * A create whose answer was lost may have made its event anyway; its task is no longer wanted (deleted,
 * out of scope, done). The same create is repeated (the same key returns the event it made, or makes
 * one) only to learn the event's id, and that event is removed: no event is left without its task.
 */
function discardPending(input: PlanInput, link: SyncLink, task: TaskSnapshot): LinkPlan {
  const write = eventWriteFor(
    input.settings,
    { id: link.taskId as string, title: task.content },
    link.startAt,
    link.eventMinutes,
    false,
  );
  return { link, events: [{ action: 'create', write, discard: true }], task: null, next: null, activity: [] };
}

/**
 * The same for a task create from an event that the user deleted before the repeat: the create is
 * repeated with its command uuid (Todoist answers with the task it made, or makes one) only to learn
 * the task's id, and that task is deleted, so the deleted event does not come back through its task.
 */
function discardPendingTask(input: PlanInput, link: SyncLink): LinkPlan {
  return {
    link,
    events: [],
    task: {
      action: 'create',
      content: 'Timeboxer',
      due: dueWriteFor(link.startAt, null, input.settings.timeZone),
      labels: [],
      duration: null,
      discard: true,
    },
    next: null,
    activity: [],
  };
}

function drop(link: SyncLink, activity: PlannedActivity[]): LinkPlan {
  return { link, events: [], task: null, next: null, activity };
}

function record(link: SyncLink, changes: Partial<LinkValues>): LinkPlan | null {
  const next = { ...keep(link), ...changes };
  const same = (Object.keys(changes) as (keyof LinkValues)[]).every(
    (key) => JSON.stringify(next[key]) === JSON.stringify(link[key]),
  );
  return same ? null : { link, events: [], task: null, next, activity: [] };
}

/** The user deleted the event (or made it all-day): nothing the user wrote may be lost. */
function eventGone(
  input: PlanInput,
  link: SyncLink,
  task: TaskSnapshot | undefined,
  event: CalendarEvent | undefined,
): LinkPlan {
  const { settings } = input;
  if (!link.taskId || link.completed) return drop(link, []);
  // Deleted: the task the event made goes with it. Made all-day: the event lives on, so its task
  // stays too, without a time, like a task that existed first.
  if (link.origin === 'event' && (!event || event.deleted)) {
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
  const start = (task && dueInstant(task.due, settings.timeZone)) || link.startAt;
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

function completionChange(
  input: PlanInput,
  link: SyncLink,
  task: TaskSnapshot,
  event: CalendarEvent | undefined,
): LinkPlan | null {
  const { settings } = input;
  const base = {
    ...keep(link),
    taskVersion: task.updatedAt,
    eventVersion: event?.version ?? link.eventVersion,
    taskMeta: taskMetaOf(task),
  };
  if (task.checked) {
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
      last.startAt.getTime() !== link.startAt.getTime() ||
      last.minutes !== link.eventMinutes;
    const marked = settings.onComplete === 'checkmark';
    if (link.eventId && (marked || changed)) {
      const write = eventWriteFor(
        settings,
        { id: task.id, title: task.content },
        last.startAt,
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
          startAt: last.startAt,
          taskMinutes: last.minutes,
          eventMinutes: last.minutes,
        },
        activity,
      };
    }
    return { link, events: [], task: null, next: { ...base, completed: true }, activity };
  }
  // Uncompleted: undo what completion did.
  const activity: PlannedActivity[] = [{ direction: TODOIST, action: 'updated', detail: 'uncompleted' }];
  if (!link.eventId) {
    if (taskMinutes(task, settings) === null) return drop(link, []);
    const plan = newEventPlan(input, task, link);
    return { ...plan, activity };
  }
  // Reopened, but no longer timeboxed (its label deleted or its setting removed while it was done): its
  // event goes, as an open task's does when it leaves the scope.
  if (taskMinutes(task, settings) === null) {
    return {
      link,
      events: [{ action: 'remove', eventId: link.eventId }],
      task: null,
      next: null,
      activity: [{ direction: TODOIST, action: 'deleted', detail: 'out-of-scope' }],
    };
  }
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
    startAt: dueInstant(task.due, settings.timeZone) ?? link.startAt,
    minutes: taskMinutes(task, settings) ?? link.eventMinutes,
  };
}

/** The event as the link last synced it, with the task's current title. */
function writeFromLink(input: PlanInput, link: SyncLink, task: TaskSnapshot, marked: boolean): EventWrite {
  return eventWriteFor(
    input.settings,
    { id: task.id, title: task.content },
    link.startAt,
    link.eventMinutes,
    marked,
    link.origin === 'task',
  );
}

/**
 * A recurring task whose due moved on because the user completed an occurrence (Todoist rolls the
 * same task to the next date). Todoist's webhook says so; without it (a lost notification) a due that
 * moved on after the linked occurrence had begun counts as completed, one that moved before it as
 * rescheduled. Either way the event was not moved by the user.
 */
function isNextOccurrence(
  input: PlanInput,
  link: SyncLink,
  task: TaskSnapshot,
  event: CalendarEvent | undefined,
): boolean {
  if (!task.due?.isRecurring) return false;
  const start = dueInstant(task.due, input.settings.timeZone);
  if (!start || start <= link.startAt) return false;
  if (!input.completedOccurrences.has(task.id) && link.startAt > input.now) return false;
  return !event?.start || event.start.getTime() === link.startAt.getTime();
}

function nextOccurrence(input: PlanInput, link: SyncLink, task: TaskSnapshot): LinkPlan {
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

/** Field by field: title, start, length. Changed on one side: flows over. On both: the later wins. */
function mergeFields(
  input: PlanInput,
  link: SyncLink,
  task: TaskSnapshot | undefined,
  event: CalendarEvent | undefined,
): LinkPlan | null {
  const { settings, hash } = input;
  const eventId = link.eventId as string;
  const taskSide = task && {
    titleHash: hash(task.content),
    start: dueInstant(task.due, settings.timeZone) as Date,
    minutes: taskMinutes(task, settings) as number,
  };
  const eventSide = event && {
    titleHash: hash(withoutCheckmark(event.title)),
    start: event.start as Date,
    minutes: eventMinutes(event),
  };
  const taskTime = task?.updatedAt ? Date.parse(task.updatedAt) : 0;
  const eventTime = event?.updatedAt?.getTime() ?? 0;
  const taskWins = taskTime >= eventTime;

  const titleT = taskSide !== undefined && taskSide.titleHash !== link.titleHash;
  const titleE = eventSide !== undefined && eventSide.titleHash !== link.titleHash;
  const startT = taskSide !== undefined && taskSide.start.getTime() !== link.startAt.getTime();
  const startE = eventSide !== undefined && eventSide.start.getTime() !== link.startAt.getTime();
  const lengthT = taskSide !== undefined && taskSide.minutes !== link.taskMinutes;
  const lengthE = eventSide !== undefined && eventSide.minutes !== link.eventMinutes;

  const titleFrom = titleT && (!titleE || taskWins) ? 'task' : titleE ? 'event' : null;
  const startFrom = startT && (!startE || taskWins) ? 'task' : startE ? 'event' : null;
  const lengthFrom = lengthT && (!lengthE || taskWins) ? 'task' : lengthE ? 'event' : null;
  // Settings restyle our events only; an event the user made keeps its own look.
  const appearanceChanged = link.origin === 'task' && link.appearanceHash !== appearanceHash(settings);

  const next: LinkValues = {
    ...keep(link),
    taskVersion: task?.updatedAt ?? link.taskVersion,
    eventVersion: event?.version ?? link.eventVersion,
    taskMeta: task ? taskMetaOf(task) : link.taskMeta,
    appearanceHash: appearanceHash(settings),
  };
  const eventDetails: string[] = [];
  const taskDetails: string[] = [];
  const update: Extract<TaskAction, { action: 'update' }> = {
    action: 'update',
    taskId: link.taskId as string,
  };

  if (titleFrom === 'task' && taskSide) {
    next.titleHash = taskSide.titleHash;
    eventDetails.push('title');
  } else if (titleFrom === 'event' && eventSide && event) {
    next.titleHash = eventSide.titleHash;
    update.content = withoutCheckmark(event.title);
    taskDetails.push('title');
  }
  if (startFrom === 'task' && taskSide) {
    next.startAt = taskSide.start;
    eventDetails.push('time');
  } else if (startFrom === 'event' && eventSide) {
    next.startAt = eventSide.start;
    const previousDue = task?.due ?? dueFromMeta(next.taskMeta, link.startAt);
    update.due = dueWriteFor(eventSide.start, previousDue, settings.timeZone);
    taskDetails.push('time');
  }
  if (lengthFrom === 'task' && taskSide) {
    next.taskMinutes = taskSide.minutes;
    next.eventMinutes = taskSide.minutes;
    eventDetails.push('length');
  } else if (lengthFrom === 'event' && eventSide) {
    const length = lengthOnTask(eventSide.minutes, settings);
    next.eventMinutes = eventSide.minutes;
    if (length.minutes !== link.taskMinutes || length.duration !== null) {
      const labels = withTimeboxLabel(next.taskMeta.labels, settings, length.label);
      if (length.duration !== null) update.duration = { amount: length.duration, unit: 'minute' };
      else update.labels = labels;
      next.taskMinutes = length.minutes;
      next.taskMeta = { ...next.taskMeta, labels };
      taskDetails.push('length');
    }
  }
  if (task && input.relabelled?.has(task.id) && update.labels === undefined) {
    update.labels = [...next.taskMeta.labels];
    taskDetails.push('labels');
  }
  if (eventDetails.length === 0 && appearanceChanged) eventDetails.push('settings');

  const events: EventAction[] = [];
  const activity: PlannedActivity[] = [];
  if (eventDetails.length > 0) {
    // The title the pair agrees on: the event's when it flows to the task, else the task's.
    const title =
      titleFrom === 'event' && event
        ? withoutCheckmark(event.title)
        : (task?.content ?? (event ? withoutCheckmark(event.title) : null));
    const taskId = link.taskId as string;
    if (title !== null) {
      events.push({
        action: 'update',
        eventId,
        write: eventWriteFor(
          settings,
          { id: taskId, title },
          next.startAt,
          next.eventMinutes,
          link.marked,
          link.origin === 'task',
        ),
      });
      activity.push({ direction: TODOIST, action: 'updated', detail: eventDetails.join(',') });
    } else {
      // Neither side was read this run; keep the old fingerprint so a later run with the task applies it.
      next.appearanceHash = link.appearanceHash;
    }
  }
  const taskAction = taskDetails.length > 0 ? update : null;
  if (taskAction) activity.push({ direction: CALENDAR, action: 'updated', detail: taskDetails.join(',') });
  if (events.length === 0 && !taskAction) {
    return record(link, {
      taskVersion: next.taskVersion,
      eventVersion: next.eventVersion,
      taskMeta: next.taskMeta,
      appearanceHash: next.appearanceHash,
    });
  }
  return { link, events, task: taskAction, next, activity };
}
