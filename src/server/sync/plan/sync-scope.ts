import { SYNC_ALL_TASKS } from '#shared/settings/constants.ts';
import {
  type ProjectScope,
  projectForNewTasks,
  projectsInScope,
  type TodoistProject,
} from '#shared/settings/project-scope.ts';
import type { CalendarEvent } from '../calendar-target.port.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { startOfLocalDay } from './due-time.ts';
import { dueWhen, type When } from './timebox-when.ts';

/**
 * Which tasks and events the sync mirrors (docs/product-rules.md §10). Pure: the engine, the preview and the
 * tests ask the same questions here.
 */

const sameLabel = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

/** The timebox label on a task, first in the task's own label order. */
function timeboxOf(task: TaskSnapshot, settings: SyncSettings) {
  for (const label of task.labels) {
    const timebox = settings.timeboxes.find((entry) => sameLabel(entry.label, label));
    if (timebox) return timebox;
  }
  return undefined;
}

function durationFieldMinutes(task: TaskSnapshot, settings: SyncSettings): number | null {
  const mode = settings.taskDuration;
  if (!mode.active || !mode.allowed || !mode.label || task.duration?.unit !== 'minute') return null;
  const chosen =
    mode.label === SYNC_ALL_TASKS || task.labels.some((label) => sameLabel(label, mode.label ?? ''));
  return chosen ? task.duration.amount : null;
}

/**
 * The settings with a project list or choice: which projects are in scope follows from them (see
 * `projectsInScope`). Every change of `projects`, `projectScope` or `eventProjectId` goes through here.
 */
export function withProjects(
  settings: Omit<SyncSettings, 'projectsInScope'>,
  change: { projects?: TodoistProject[]; projectScope?: ProjectScope; eventProjectId?: string | null } = {},
): SyncSettings {
  const next = { ...settings, ...change };
  const { mode, projects } = next.projectScope;
  return {
    ...next,
    projectsInScope: projectsInScope(next.projects, {
      mode,
      projectIds: projects.map((chosen) => chosen.id),
    }),
  };
}

/** Whether the task's project syncs (a task whose project is not known is not left out for it). */
export function projectSyncs(task: TaskSnapshot, settings: SyncSettings): boolean {
  return (
    task.projectId === null ||
    settings.projectsInScope === null ||
    settings.projectsInScope.has(task.projectId)
  );
}

/** The project a task made from an event goes to; undefined: none of the account's projects syncs. */
export const newTaskProject = (settings: SyncSettings): string | null | undefined =>
  projectForNewTasks(settings.projects, settings.projectsInScope, settings.eventProjectId);

/**
 * The event length a task asks for, or null when the task is not timeboxed: it needs a due time (or a
 * date, where dated tasks are all-day events), a project that syncs and a timebox label (or, in
 * task-duration mode, the duration field and the chosen label).
 */
export function taskMinutes(task: TaskSnapshot, settings: SyncSettings): number | null {
  if (task.isDeleted || dueWhen(task.due, settings) === null) return null;
  if (!projectSyncs(task, settings)) return null;
  if (settings.taskDuration.active && settings.taskDuration.allowed)
    return durationFieldMinutes(task, settings);
  return timeboxOf(task, settings)?.duration ?? null;
}

/** When and how long a task the caller knows is timeboxed (`taskMinutes` is not null). */
export function taskTimebox(task: TaskSnapshot, settings: SyncSettings): { when: When; minutes: number } {
  const when = dueWhen(task.due, settings);
  const minutes = taskMinutes(task, settings);
  if (when === null || minutes === null) throw new Error('the task is not timeboxed');
  return { when, minutes };
}

export const eventMinutes = (event: CalendarEvent): number =>
  event.start && event.end
    ? Math.max(1, Math.round((event.end.getTime() - event.start.getTime()) / 60_000))
    : 0;

/**
 * Whether a calendar event the user made should become a task: single, timed, from the start of today
 * on, not ours, of the chosen colour (Google; '' = events without a colour) or category (Microsoft;
 * none = every event), and with a project that syncs to put its task in.
 */
export function eventWanted(event: CalendarEvent, settings: SyncSettings, now: Date): boolean {
  if (event.deleted || event.allDay || event.recurring || event.taskTag !== null) return false;
  // Another sync's event (Todoist's own calendar integration, say) already has its task there.
  if (event.otherSync !== null) return false;
  if (newTaskProject(settings) === undefined) return false;
  if (!event.start || !event.end) return false;
  if (event.start < startOfLocalDay(now, settings.timeZone)) return false;
  if (settings.calendarProvider === 'google') return (event.color ?? '') === settings.color;
  return (
    settings.category === null ||
    event.categories.some((category) => sameLabel(category, settings.category ?? ''))
  );
}

/** Whether a task should get an event when first seen: timeboxed, open, due from the start of today on. */
export function taskWanted(task: TaskSnapshot, settings: SyncSettings, now: Date): boolean {
  if (task.checked || taskMinutes(task, settings) === null) return false;
  const when = dueWhen(task.due, settings);
  return when !== null && when.start >= startOfLocalDay(now, settings.timeZone);
}

/**
 * What a task made from an event of `minutes` carries: the timebox label of that length; else the
 * duration field where the user may use it; else the nearest timebox label (the event keeps its length).
 */
export function lengthOnTask(
  minutes: number,
  settings: SyncSettings,
): { label: string | null; duration: number | null; minutes: number } {
  const mode = settings.taskDuration;
  if (mode.active && mode.allowed && mode.label) {
    return { label: mode.label === SYNC_ALL_TASKS ? null : mode.label, duration: minutes, minutes };
  }
  const exact = settings.timeboxes.find((entry) => entry.duration === minutes);
  if (exact) return { label: exact.label, duration: null, minutes };
  const nearest = [...settings.timeboxes].sort(
    (a, b) => Math.abs(a.duration - minutes) - Math.abs(b.duration - minutes) || a.duration - b.duration,
  )[0];
  return nearest
    ? { label: nearest.label, duration: null, minutes: nearest.duration }
    : { label: null, duration: null, minutes };
}

/** The task's labels with every timebox label replaced by `label` (null: none). */
export function withTimeboxLabel(labels: string[], settings: SyncSettings, label: string | null): string[] {
  const kept = labels.filter(
    (existing) => !settings.timeboxes.some((entry) => sameLabel(entry.label, existing)),
  );
  return label && !kept.some((existing) => sameLabel(existing, label)) ? [...kept, label] : kept;
}

/** The projects in scope as one string: a change of it (a choice, a project archived) is a change of scope. */
export function projectScopeKey(settings: SyncSettings): string | null {
  return settings.projectsInScope === null ? null : [...settings.projectsInScope].sort().join(',');
}

/**
 * Fingerprint of the settings that decide which tasks and events are in scope (timeboxes and their
 * lengths, task durations, the colour or category filter, the projects that sync, dated tasks, and
 * whether "Plan my day" is on). When it changes, a
 * run reads both sides in full, so tasks and events already there are judged by the new settings
 * (docs/product-rules.md §10).
 */
export function scopeHash(settings: SyncSettings): string {
  const timeboxes = settings.timeboxes
    .map((entry) => `${entry.label.toLocaleLowerCase()}=${entry.duration}`)
    .sort();
  const duration = settings.taskDuration.active && settings.taskDuration.allowed;
  return JSON.stringify([
    timeboxes,
    duration ? settings.taskDuration.label : null,
    settings.calendarProvider,
    settings.calendarProvider === 'google' ? settings.color : settings.category,
    // The projects in scope as the run sees them, whatever the mode: a project archived or unarchived
    // that the dashboard's refresh stored before any run read it still changes the fingerprint.
    projectScopeKey(settings),
    settings.datedTasks,
    // Switched on, "Plan my day" must see every dated task, not only those changed since.
    settings.autoplan.active,
  ]);
}
