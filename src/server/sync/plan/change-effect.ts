import { type ChangePreview, NO_CHANGE, type ProposedChangeQuery } from '#shared/api/sync.schema.ts';
import type { DatedTasksSetting } from '#shared/settings/dated-tasks.ts';
import type { ProjectScopeMode } from '#shared/settings/project-scope.ts';
import type { CalendarEvent } from '../calendar-target.port.ts';
import type { SyncSettings } from '../sync-settings.ts';
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

type Counts = Omit<ChangePreview, 'eventsMoved' | 'heldByBrake'>;

function countsOf(plans: LinkPlan[]): Counts & { removals: number } {
  const counts = {
    eventsCreated: 0,
    eventsRemoved: 0,
    tasksCreated: 0,
    tasksDeleted: 0,
    tasksUnscheduled: 0,
    tasksKept: 0,
    removals: 0,
  };
  for (const plan of plans) {
    if (plan.events.some((action) => action.action === 'create' && !action.discard))
      counts.eventsCreated += 1;
    const removesEvent = plan.events.some((action) => action.action === 'remove');
    if (removesEvent) counts.eventsRemoved += 1;
    if (removesEvent && plan.next === null && plan.task === null) counts.tasksKept += 1;
    if (plan.task?.action === 'create' && !plan.task.discard) counts.tasksCreated += 1;
    if (plan.task?.action === 'delete') counts.tasksDeleted += 1;
    if (plan.task?.action === 'update' && plan.next === null) counts.tasksUnscheduled += 1;
    if (isRemoval(plan)) counts.removals += 1;
  }
  return counts;
}

/**
 * The effect of `change` on a full read of both sides (`input` planned with the settings as they are).
 * A calendar change moves every linked event; the new calendar's events in scope become tasks.
 */
export function changeEffect(
  input: PlanInput,
  change: ProposedChange,
  thresholds: BrakeThresholds,
  newCalendarEvents: CalendarEvent[] = [],
): ChangePreview {
  const after = settingsAfter(input.settings, change);
  if (change.kind === 'calendar') {
    const moved = input.links.filter((link) => link.eventId !== null).length;
    const wanted = newCalendarEvents.filter((event) => eventWanted(event, after, input.now)).length;
    return {
      ...NO_CHANGE,
      eventsMoved: change.calendarId === input.settings.calendarId ? 0 : moved,
      tasksCreated: wanted,
    };
  }
  const before = countsOf(planSync(input));
  const then = countsOf(planSync({ ...input, settings: after }));
  const more = (key: keyof typeof before) => Math.max(0, then[key] - before[key]);
  const removals = more('removals');
  return {
    eventsCreated: more('eventsCreated'),
    eventsRemoved: more('eventsRemoved'),
    eventsMoved: 0,
    tasksCreated: more('tasksCreated'),
    tasksDeleted: more('tasksDeleted'),
    tasksUnscheduled: more('tasksUnscheduled'),
    tasksKept: more('tasksKept'),
    heldByBrake: tooMany(removals, input.links.length, thresholds),
  };
}
