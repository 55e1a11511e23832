import type { ItemName } from '#shared/api/activity-names.schema.ts';
import {
  type ChangePreview,
  type NamedPreviewCount,
  NO_CHANGE,
  type ProposedChangeQuery,
} from '#shared/api/sync.schema.ts';
import type { DatedTasksSetting } from '#shared/settings/dated-tasks.ts';
import type { ProjectScopeMode } from '#shared/settings/project-scope.ts';
import type { CalendarEvent } from '../calendar-target.port.ts';
import type { SyncSettings } from '../sync-settings.ts';
import { earliestNames, eventName, taskName } from './item-name.ts';
import type { LinkPlan, PlanInput } from './link-plan.ts';
import { type BrakeThresholds, isRemoval, tooMany } from './removal-brake.ts';
import { planSync } from './sync-planner.ts';
import { eventWanted, withProjects } from './sync-scope.ts';

/**
 * What a proposed settings change would do to what is already synced (docs/product-rules.md §10), for
 * the confirmation the web app shows before saving it. Pure: the same planner runs on one full read of
 * both sides with the settings as they are and as they would be; the difference is the change's effect
 * (what is waiting to sync anyway is left out).
 */

export type ProposedChange =
  | { kind: 'removeTimebox'; label: string }
  | { kind: 'calendar'; calendarId: string }
  | { kind: 'color'; color: string }
  | { kind: 'category'; category: string | null }
  | { kind: 'taskDuration'; active: boolean }
  | { kind: 'projects'; mode: ProjectScopeMode; projectIds: string[] }
  | { kind: 'datedTasks'; setting: DatedTasksSetting };

/** The query as a change; null when it lacks what its kind needs. */
export function proposedChange(query: ProposedChangeQuery): ProposedChange | null {
  switch (query.change) {
    case 'removeTimebox':
      return query.label ? { kind: 'removeTimebox', label: query.label } : null;
    case 'calendar':
      return query.calendarId ? { kind: 'calendar', calendarId: query.calendarId } : null;
    case 'color':
      return query.value === undefined ? null : { kind: 'color', color: query.value };
    case 'category':
      return query.value === undefined ? null : { kind: 'category', category: query.value || null };
    case 'taskDuration':
      return query.active ? { kind: 'taskDuration', active: query.active === 'true' } : null;
    case 'projects': {
      const projectIds = (query.projectIds ?? '').split(',').filter((id) => id !== '');
      if (!query.mode || (query.mode === 'chosen' && projectIds.length === 0)) return null;
      return { kind: 'projects', mode: query.mode, projectIds: query.mode === 'all' ? [] : projectIds };
    }
    case 'datedTasks':
      return query.setting ? { kind: 'datedTasks', setting: query.setting } : null;
  }
}

export function settingsAfter(settings: SyncSettings, change: ProposedChange): SyncSettings {
  switch (change.kind) {
    case 'removeTimebox':
      return {
        ...settings,
        timeboxes: settings.timeboxes.filter(
          (entry) => entry.label.toLocaleLowerCase() !== change.label.toLocaleLowerCase(),
        ),
      };
    case 'calendar':
      return { ...settings, calendarId: change.calendarId };
    case 'color':
      return { ...settings, color: change.color };
    case 'category':
      return { ...settings, category: change.category };
    case 'taskDuration':
      return { ...settings, taskDuration: { ...settings.taskDuration, active: change.active } };
    case 'projects':
      return withProjects(settings, {
        projectScope: {
          mode: change.mode,
          projects: change.projectIds.map((id) => ({ id, name: '' })),
        },
      });
    case 'datedTasks':
      return { ...settings, datedTasks: change.setting };
  }
}

/** What each plan does, by kind, keyed by its pair (so the change's own effect is a set difference). */
type Kind = NamedPreviewCount | 'tasksKept' | 'removals';
type Effects = Record<Kind, Map<string, LinkPlan>>;
const KINDS: readonly Kind[] = [
  'eventsCreated',
  'eventsRemoved',
  'tasksCreated',
  'tasksDeleted',
  'tasksUnscheduled',
  'tasksKept',
  'removals',
];

/** The pair a plan is about: its task and its event, as far as either is known before the run. */
function pairOf(plan: LinkPlan): { taskId: string | null; eventId: string | null } {
  const taskAction = plan.task && plan.task.action !== 'create' ? plan.task.taskId : null;
  const eventAction = plan.events.find((action) => action.action !== 'create');
  return {
    taskId: plan.link?.taskId ?? plan.next?.taskId ?? taskAction,
    eventId: plan.link?.eventId ?? plan.next?.eventId ?? (eventAction ? eventAction.eventId : null),
  };
}
const keyOf = (plan: LinkPlan) => {
  const { taskId, eventId } = pairOf(plan);
  return `${taskId ?? ''} ${eventId ?? ''}`;
};

function effectsOf(plans: LinkPlan[]): Effects {
  const effects = Object.fromEntries(KINDS.map((kind) => [kind, new Map()])) as Effects;
  const add = (kind: Kind, plan: LinkPlan) => effects[kind].set(keyOf(plan), plan);
  for (const plan of plans) {
    if (plan.events.some((action) => action.action === 'create' && !action.discard))
      add('eventsCreated', plan);
    const removesEvent = plan.events.some((action) => action.action === 'remove');
    if (removesEvent) add('eventsRemoved', plan);
    if (removesEvent && plan.next === null && plan.task === null) add('tasksKept', plan);
    if (plan.task?.action === 'create' && !plan.task.discard) add('tasksCreated', plan);
    if (plan.task?.action === 'delete') add('tasksDeleted', plan);
    if (plan.task?.action === 'update' && plan.next === null) add('tasksUnscheduled', plan);
    if (isRemoval(plan)) add('removals', plan);
  }
  return effects;
}

/** Names the earliest few items of a count: events by the event's title, tasks by the task's. */
function namer(input: PlanInput, newCalendarEvents: readonly CalendarEvent[]) {
  const tasks = new Map(input.tasks.map((task) => [task.id, task]));
  const events = new Map([...input.events, ...newCalendarEvents].map((event) => [event.id, event]));
  const nameOf = (side: 'task' | 'event', { taskId, eventId }: ReturnType<typeof pairOf>) => {
    const task = taskId ? tasks.get(taskId) : undefined;
    const event = eventId ? events.get(eventId) : undefined;
    if (side === 'event') return event ? eventName(event) : task ? taskName(task) : null;
    return task ? taskName(task) : event ? eventName(event) : null;
  };
  return (side: 'task' | 'event', pairs: Iterable<ReturnType<typeof pairOf>>): ItemName[] =>
    earliestNames([...pairs].map((pair) => nameOf(side, pair)));
}

/** The side a count's items are named by (a task that becomes an event is named by its task). */
const SIDE_NAMED: Record<NamedPreviewCount, 'task' | 'event'> = {
  eventsMoved: 'event',
  eventsRemoved: 'event',
  tasksDeleted: 'task',
  tasksUnscheduled: 'task',
  eventsCreated: 'task',
  tasksCreated: 'event',
};

/**
 * The effect of `change` on a full read of both sides (`input` planned with the settings as they are):
 * what the plans with the settings changed do that the plans without do not. A calendar change moves
 * every linked event; the new calendar's events in scope become tasks. Each count's first items are
 * named by title and time from the same read.
 */
export function changeEffect(
  input: PlanInput,
  change: ProposedChange,
  thresholds: BrakeThresholds,
  newCalendarEvents: CalendarEvent[] = [],
): ChangePreview {
  const after = settingsAfter(input.settings, change);
  const name = namer(input, newCalendarEvents);
  if (change.kind === 'calendar') {
    if (change.calendarId === input.settings.calendarId) return NO_CHANGE;
    const moved = input.links.filter((link) => link.eventId !== null);
    const wanted = newCalendarEvents.filter((event) => eventWanted(event, after, input.now));
    return {
      ...NO_CHANGE,
      eventsMoved: moved.length,
      tasksCreated: wanted.length,
      named: {
        ...NO_CHANGE.named,
        eventsMoved: name('event', moved),
        tasksCreated: name(
          'event',
          wanted.map((event) => ({ taskId: null, eventId: event.id })),
        ),
      },
    };
  }
  const before = effectsOf(planSync(input));
  const then = effectsOf(planSync({ ...input, settings: after }));
  const more = (kind: Kind) =>
    [...then[kind]].filter(([key]) => !before[kind].has(key)).map(([, plan]) => plan);
  const named = (kind: NamedPreviewCount) => name(SIDE_NAMED[kind], more(kind).map(pairOf));
  return {
    eventsCreated: more('eventsCreated').length,
    eventsRemoved: more('eventsRemoved').length,
    eventsMoved: 0,
    tasksCreated: more('tasksCreated').length,
    tasksDeleted: more('tasksDeleted').length,
    tasksUnscheduled: more('tasksUnscheduled').length,
    tasksKept: more('tasksKept').length,
    heldByBrake: tooMany(more('removals').length, input.links.length, thresholds),
    named: {
      eventsMoved: [],
      eventsRemoved: named('eventsRemoved'),
      tasksDeleted: named('tasksDeleted'),
      tasksUnscheduled: named('tasksUnscheduled'),
      eventsCreated: named('eventsCreated'),
      tasksCreated: named('tasksCreated'),
    },
  };
}
