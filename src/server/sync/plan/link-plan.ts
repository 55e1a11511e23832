import type { SyncAction, SyncDirection } from '#shared/api/sync.schema.ts';
import type { CalendarEvent, EventWrite } from '../calendar-target.port.ts';
import type { LinkTaskMeta, SyncLink } from '../sync-link.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { DueWrite, TaskDue, TaskSnapshot } from '../task-source.port.ts';
import type { TitleHasher } from './event-title.ts';

/**
 * What the planner answers: per pair of task and event, the writes to make and what the link keeps
 * after them. The engine executes plans; the preview and the safety brake read them.
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
      /** The project it goes to (omitted: Todoist's Inbox); see `newTaskProject`. */
      projectId?: string;
      /** The task is deleted right after; see `discardPendingTask`. */
      discard?: boolean;
    }
  | TaskUpdate
  | { action: 'delete'; taskId: string };

export type TaskUpdate = {
  action: 'update';
  taskId: string;
  content?: string;
  due?: DueWrite;
  labels?: string[];
  duration?: { amount: number; unit: 'minute' } | null;
};

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

/** A linked pair as one run sees it: either side may be unread (unchanged since the last run). */
export type Pair = {
  input: PlanInput;
  link: SyncLink;
  task: TaskSnapshot | undefined;
  event: CalendarEvent | undefined;
};

export const TODOIST = 'todoist-to-calendar' as const;
export const CALENDAR = 'calendar-to-todoist' as const;

/** The link's values, to carry on into `next`. */
export const keep = (link: SyncLink): LinkValues => {
  const { id: _id, pendingKey: _pending, ...values } = link;
  return values;
};

/** The pair is over; nothing is written. */
export function drop(link: SyncLink, activity: PlannedActivity[] = []): LinkPlan {
  return { link, events: [], task: null, next: null, activity };
}

/** The pair is over and its event (if it has one) is removed. */
export function removeEvent(link: SyncLink, activity: PlannedActivity): LinkPlan {
  return {
    link,
    events: link.eventId ? [{ action: 'remove', eventId: link.eventId }] : [],
    task: null,
    next: null,
    activity: [activity],
  };
}

/** Only the link's record changes (versions moved on); null when nothing does. */
export function recordOnly(link: SyncLink, changes: Partial<LinkValues>): LinkPlan | null {
  const next = { ...keep(link), ...changes };
  const same = (Object.keys(changes) as (keyof LinkValues)[]).every(
    (key) => JSON.stringify(next[key]) === JSON.stringify(link[key]),
  );
  return same ? null : { link, events: [], task: null, next, activity: [] };
}

export const taskMetaOf = (task: TaskSnapshot): LinkTaskMeta => ({
  labels: [...task.labels],
  dueTimezone: task.due?.timezone ?? null,
  recurrence: task.due?.isRecurring ? task.due.string : null,
});

/** The task's due as the link last saw it (for a task this run did not read). */
export const dueFromMeta = (meta: LinkTaskMeta, start: Date): TaskDue => ({
  date: start.toISOString(),
  timezone: meta.dueTimezone,
  isRecurring: meta.recurrence !== null,
  string: meta.recurrence ?? '',
});
