import fc from 'fast-check';
import { inScope, LABEL_OF, type Project, taskExists, touch } from './sync-model.ts';
import {
  Action,
  hour,
  idOf,
  length,
  onItem,
  openTimeboxed,
  pick,
  timeboxLength,
  usableLabel,
} from './sync-model-actions.ts';
import { userTimed } from './sync-model-autoplan.ts';
import { addItem, newTitle } from './sync-model-items.ts';
import { calendarQuiet, changeProjects, projectsChangeable } from './sync-model-scope-changes.ts';

/** What the user does in their own Todoist: tasks added, changed, done, deleted; labels renamed, deleted. */

/** A task in the Inbox or in Work (not while Work is archived); out of the sync while its project is. */
export const addTask = fc
  .record({ at: hour, length, unlabelled: fc.boolean(), project: fc.constantFrom<Project>('inbox', 'work') })
  .map(({ at, length: minutes, unlabelled, project }) => {
    return new Action(
      `addTask(${at}:00, ${unlabelled ? 'no label' : `${minutes} min`}, ${project})`,
      (model) => (unlabelled || usableLabel(model, minutes)) && !(project === 'work' && model.workArchived),
      async (model, real) => {
        const title = newTitle(model);
        const task = await real.user.todoist.addTask({
          content: title,
          labels: unlabelled ? [] : [model.labels[minutes]],
          dueString: `${real.day} at ${at}:00`,
          ...(project === 'work' ? { projectId: real.projects.work } : {}),
        });
        const item = addItem(model, 'todoist', {
          outOfScope: unlabelled ? 'unlabelled-task' : null,
          title,
          hour: at,
          length: minutes,
          timeboxed: !unlabelled,
          durationField: false,
          style: model.filter,
          project,
        });
        real.taskIds.set(item.id, task.id);
      },
    );
  });

/**
 * A timeboxed task with a date but no time (docs/product-rules.md §10): an all-day event while dated
 * tasks are all-day events, none otherwise. `at` is the hour it gets if it is given a time later.
 */
export const addDatedTask = fc
  .record({ at: hour, length, project: fc.constantFrom<Project>('inbox', 'work') })
  .map(({ at, length: minutes, project }) => {
    return new Action(
      `addDatedTask(${minutes} min, ${project})`,
      (model) => usableLabel(model, minutes) && !(project === 'work' && model.workArchived),
      async (model, real) => {
        const title = newTitle(model);
        const task = await real.user.todoist.addTask({
          content: title,
          labels: [model.labels[minutes]],
          dueDate: real.day,
          ...(project === 'work' ? { projectId: real.projects.work } : {}),
        });
        const item = addItem(model, 'todoist', {
          outOfScope: null,
          title,
          hour: at,
          length: minutes,
          timeboxed: true,
          durationField: false,
          style: model.filter,
          project,
          dated: true,
        });
        real.taskIds.set(item.id, task.id);
      },
    );
  });

/**
 * Takes the time off a timeboxed task, keeping its date and label: its event becomes an all-day one
 * while dated tasks are all-day events; otherwise the task leaves the sync (its event goes), like a
 * label taken off, and once per settle for the same reason (see `toggleTimebox`).
 */
export const dropTaskTime = pick.map((n) =>
  onItem(
    'dropTaskTime',
    n,
    'todoist',
    (model, item) =>
      openTimeboxed(model, item) &&
      !item.dated &&
      !item.durationField &&
      (model.datedAllDay || !item.relabelled),
    async (model, real, item) => {
      await real.user.todoist.updateTask(idOf(real.taskIds, item), { dueDate: real.day });
      item.dated = true;
      userTimed(item);
      if (!model.datedAllDay) {
        item.origin = 'task';
        item.relabelled = true;
        item.placement = null;
      }
    },
  ),
);

export const retitleTask = pick.map((n) =>
  onItem(
    'retitleTask',
    n,
    'todoist',
    (_m, item) => taskExists(item) && !item.completed,
    async (model, real, item) => {
      item.title = newTitle(model);
      await real.user.todoist.updateTask(idOf(real.taskIds, item), { content: item.title });
    },
  ),
);

export const moveTask = fc.tuple(pick, hour).map(([n, at]) =>
  onItem(
    `moveTask(${at}:00)`,
    n,
    'todoist',
    (model, item) =>
      openTimeboxed(model, item) || (item.outOfScope === 'unlabelled-task' && !item.taskDeleted),
    async (_model, real, item) => {
      await real.user.todoist.updateTask(idOf(real.taskIds, item), { dueString: `${real.day} at ${at}:00` });
      item.hour = at;
      item.dated = false;
      userTimed(item);
    },
  ),
);

/** To a label that is not deleted and has a timebox setting (another length's event stays in scope). */
export const relabelTask = fc.tuple(pick, length).map(([n, minutes]) =>
  onItem(
    `relabelTask(${minutes} min)`,
    n,
    'todoist',
    (model, item) =>
      !model.durations &&
      openTimeboxed(model, item) &&
      usableLabel(model, minutes) &&
      timeboxLength(model, minutes),
    async (model, real, item) => {
      await real.user.todoist.updateTask(idOf(real.taskIds, item), { labels: [model.labels[minutes]] });
      item.length = minutes;
      userTimed(item);
    },
  ),
);

/**
 * Takes the timebox label off (the event goes) or puts it back (a new event comes, when the label has a
 * setting); a deleted label is not put back.
 */
export const toggleTimebox = pick.map((n) =>
  onItem(
    'toggleTimebox',
    n,
    'todoist',
    (model, item) =>
      item.outOfScope === null &&
      taskExists(item) &&
      !item.untimed &&
      !item.completed &&
      // Once per settle: taken off and put back before a run saw it, the link (and its origin) stays.
      !item.relabelled &&
      // Labels are the timeboxes only while task durations are off; a task with a duration keeps none.
      !model.durations &&
      !item.durationField &&
      (item.timeboxed || usableLabel(model, item.length)),
    async (model, real, item) => {
      const labels = item.timeboxed ? [] : [model.labels[item.length]];
      await real.user.todoist.updateTask(idOf(real.taskIds, item), { labels });
      // Out of scope the link ends; a label put back starts a new one, from the task.
      if (item.timeboxed) item.origin = 'task';
      item.timeboxed = !item.timeboxed;
      item.relabelled = true;
      item.placement = null;
    },
  ),
);

/**
 * Only an item both sides know, whose link still stands: whether a run saw a new task (or a label
 * taken off and put back) before it was done would otherwise decide whether it gets an event at all.
 * Changes made to the task just before are fine: completion carries them to the event.
 */
export const completeTask = pick.map((n) =>
  onItem(
    'completeTask',
    n,
    'todoist',
    (model, item) => openTimeboxed(model, item) && item.createdOn === null && !item.relabelled,
    async (_model, real, item) => {
      await real.user.todoist.closeTask(idOf(real.taskIds, item));
      item.completed = true;
      // Read done, a block is no longer the app's; reopened before a run saw it, it still is.
      if (item.placement === 'app') item.placement = 'either';
    },
  ),
);

/**
 * Undoes what completion did. A task whose label was deleted or lost its setting while it was done is
 * out of scope once open: its event goes (docs/product-rules.md §10, "a task out of scope deletes its
 * event"). A task done while another account's pairs were unlinked gets an event in the account now.
 */
export const reopenTask = pick.map((n) =>
  onItem(
    'reopenTask',
    n,
    'todoist',
    (_m, item) => item.completed && taskExists(item),
    async (model, real, item) => {
      await real.user.todoist.reopenTask(idOf(real.taskIds, item));
      item.completed = false;
      if (!inScope(model, item)) item.origin = 'task';
      if (item.eventLeftBehind) {
        // Unlinked: whether a run made its event before a completion would decide whether it keeps one.
        item.eventLeftBehind = false;
        item.origin = 'task';
        item.relabelled = true;
        item.placement = null;
      }
    },
  ),
);

/**
 * Renames a timebox label in Todoist (which renames it on every task): the setting follows the label,
 * so nothing else changes, every timeboxed task keeps its event, and later adds use the new name.
 */
export const renameLabel = length.map(
  (minutes) =>
    new Action(
      `renameLabel(${minutes} min)`,
      (model) => !model.labelDeleted[minutes],
      async (model, real) => {
        const { todoist } = real.user;
        const label = (await todoist.getLabels()).results.find((each) => each.name === model.labels[minutes]);
        if (!label) throw new Error(`no Todoist label “${model.labels[minutes]}”`);
        model.renames += 1;
        const name = `${LABEL_OF[minutes]}-${model.renames}`;
        await todoist.updateLabel(label.id, { name });
        model.labels[minutes] = name;
      },
    ),
);

/**
 * Deletes a timebox label in Todoist, which takes it off every task (done ones too). The setting stays
 * under the name (the dashboard's "missing in Todoist" row). Open tasks that carried it are out of scope:
 * their events go, the user's own events included (their tasks lost the label); done pairs stay as they
 * are. Events of that length still become tasks carrying the name (the setting matches it); the user no
 * longer puts it on a task. Not while a change on the calendar side waits for a run: whether the run
 * made or relabelled its task before the label went would decide whether it keeps the label.
 */
export const deleteLabel = length.map(
  (minutes) =>
    new Action(
      `deleteLabel(${minutes} min)`,
      (model) => !model.labelDeleted[minutes] && !model.durations && calendarQuiet(model),
      async (model, real) => {
        const { todoist } = real.user;
        const label = (await todoist.getLabels()).results.find((each) => each.name === model.labels[minutes]);
        if (!label) throw new Error(`no Todoist label “${model.labels[minutes]}”`);
        await todoist.deleteLabel(label.id);
        model.labelDeleted[minutes] = true;
        for (const item of model.items) {
          if (item.outOfScope !== null || !taskExists(item) || item.untimed || !item.timeboxed) continue;
          if (item.length !== minutes) continue;
          item.timeboxed = false;
          if (item.completed) continue;
          item.origin = 'task';
          item.relabelled = true;
          item.placement = null;
          touch(model, item, 'todoist');
        }
      },
    ),
);

export const deleteTask = pick.map((n) =>
  onItem(
    'deleteTask',
    n,
    'todoist',
    (_m, item) => taskExists(item),
    async (_model, real, item) => {
      await real.user.todoist.deleteTask(idOf(real.taskIds, item));
      item.taskDeleted = true;
    },
  ),
);

/**
 * Moves an open task from the Inbox to Work or back (not while Work is archived). Into a project that
 * does not sync it loses its event and keeps everything else; into one that does it gets a new event,
 * from the task: like a timebox label taken off or put back (`toggleTimebox`), and so, when its scope
 * changes, once per settle.
 */
export const moveTaskToProject = pick.map((n) =>
  onItem(
    'moveTaskToProject',
    n,
    'todoist',
    (model, item) => {
      if (!taskExists(item) || item.completed || model.workArchived) return false;
      const moved = { ...item, project: item.project === 'work' ? ('inbox' as const) : ('work' as const) };
      return !item.relabelled || inScope(model, item) === inScope(model, moved);
    },
    async (model, real, item) => {
      const to: Project = item.project === 'work' ? 'inbox' : 'work';
      await real.user.todoist.moveTask(idOf(real.taskIds, item), { projectId: real.projects[to] });
      const before = inScope(model, item);
      item.project = to;
      if (before !== inScope(model, item)) {
        item.origin = 'task';
        item.relabelled = true;
        item.placement = null;
      }
    },
  ),
);

/**
 * Archives Work in Todoist, or unarchives it: its tasks leave the sync (their events go, the user's own
 * too; the tasks stay) or come back (new events, from the tasks); done pairs stay. Not while a change on
 * the calendar side waits for a run (whether the run saw it before the archive would decide what
 * becomes of it); once between two settles (see `projectsChanged`).
 */
export const archiveWork = fc.boolean().map(
  (archive) =>
    new Action(
      archive ? 'archiveWork' : 'unarchiveWork',
      (model) =>
        model.workArchived !== archive &&
        !model.projectsChanged &&
        calendarQuiet(model) &&
        projectsChangeable(model, { workArchived: archive }),
      async (model, real) => {
        const { todoist } = real.user;
        if (archive) await todoist.archiveProject(real.projects.work);
        else await todoist.unarchiveProject(real.projects.work);
        changeProjects(model, { workArchived: archive });
      },
    ),
);
