import {
  type CalendarChoice,
  eventProject,
  inScope,
  type Model,
  type Style,
  taskExists,
  touch,
  unsyncedEvent,
  waitingForTime,
} from './sync-model.ts';

/**
 * The user's changes around the sync in the model (sync-model.ts) that change which tasks and events it
 * takes: the projects and dated tasks in scope, foreign events adopted, another calendar account; and
 * when the model may make them.
 */

/** The choices that decide, besides labels and settings, which tasks are in scope. */
type ScopeChoice = Pick<Model, 'projectChoice' | 'workArchived' | 'datedAllDay'>;

/**
 * Whether the projects (or the dated-tasks setting) may change as `change` says now: no open task it
 * would take out of the sync or
 * bring back changed scope since the last settle (taken out and brought back before a run saw it, the
 * link would stay or not by timing; see `toggleTimebox`).
 */
export const projectsChangeable = (model: Readonly<Model>, change: Partial<ScopeChoice>) =>
  model.items.every(
    (item) =>
      !item.relabelled ||
      item.completed ||
      !taskExists(item) ||
      inScope(model, item) === inScope({ ...model, ...change }, item),
  );

/**
 * Changes which projects sync (the choice on the dashboard, or Work archived or unarchived in Todoist).
 * An open task it takes out of the sync loses its event and keeps everything else, one it brings back
 * gets a new event, from the task: like a timebox label taken off or put back (`toggleTimebox`). Done
 * pairs stay as they are.
 */
export function changeProjects(model: Model, change: Partial<ScopeChoice>): void {
  changeScope(model, change);
  model.projectsChanged = true;
}

/**
 * Changes a choice that decides which tasks are in scope (the projects, whether dated tasks are all-day
 * events, or task durations instead of labels): as `changeProjects` says, without holding back new events.
 */
export function changeScope(model: Model, change: Partial<ScopeChoice & Pick<Model, 'durations'>>): void {
  const before = model.items.map((item) => inScope(model, item));
  Object.assign(model, change);
  model.items.forEach((item, index) => {
    if (item.completed || !taskExists(item) || before[index] === inScope(model, item)) return;
    item.origin = 'task';
    item.relabelled = true;
    item.placement = null;
    touch(model, item, 'todoist');
  });
}

/**
 * The user's foreign events in the chosen calendar whose colour or category the sync now takes (the
 * filter changed, or another calendar was chosen) become tasks in the next run, like new events.
 */
export function adoptForeignEvents(model: Model): void {
  for (const item of model.items) {
    if (
      item.outOfScope !== 'foreign-event' ||
      item.eventDeleted ||
      item.account !== model.account ||
      item.calendar !== model.calendar ||
      item.style !== model.filter
    )
      continue;
    item.outOfScope = null;
    item.origin = 'event';
    // `adoptable` holds: some project syncs.
    item.project = eventProject(model) ?? 'inbox';
    item.timeboxed = !model.durations;
    item.durationField = model.durations;
    item.createdOn = 'calendar';
  }
}

/**
 * The foreign events `adoptForeignEvents` would turn into tasks all have a length with a timebox setting
 * (else the task takes the nearest one, which the model does not follow).
 */
export const adoptable = (model: Readonly<Model>, filter: Style, calendar: CalendarChoice) =>
  // While no project syncs no event becomes a task, and which do once one syncs again is left open.
  eventProject(model) !== null &&
  model.items.every(
    (item) =>
      item.outOfScope !== 'foreign-event' ||
      item.eventDeleted ||
      item.account !== model.account ||
      item.calendar !== calendar ||
      item.style !== filter ||
      model.durations ||
      model.settings[item.length],
  );

/**
 * No change on the calendar side is waiting for a run (an event made, moved, resized, retitled or
 * deleted since the last settle): what a settings change does to it would depend on whether a run saw it
 * before.
 */
export const calendarQuiet = (model: Readonly<Model>) =>
  ![...model.touched.values()].includes('calendar') &&
  !model.items.some(unsyncedEvent) &&
  // Whether a run placed a waiting task before a change of scope would decide whether it has a time.
  !model.items.some((item) => waitingForTime(model, item));

/**
 * Another calendar account connected (the integration was removed first): its first calendar and the
 * first colour or category are chosen. The old account keeps every event as it was; the pairs are
 * unlinked, so every open task in scope gets a new event (from the task, known only in Todoist until a
 * settle), a done one none, and the user's events there no longer count.
 */
export function switchAccount(model: Model): void {
  model.account += 1;
  model.calendar = 0;
  model.filter = 0;
  model.calendarMoving = false;
  for (const item of model.items) {
    if (item.outOfScope !== null) continue;
    item.origin = 'task';
    if (item.completed) item.eventLeftBehind = true;
    else if (taskExists(item)) item.createdOn = 'todoist';
  }
}
