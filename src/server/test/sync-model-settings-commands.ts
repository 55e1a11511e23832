import fc from 'fast-check';
import { expect } from 'vitest';
import { SYNC_ALL_TASKS } from '#shared/settings/constants.ts';
import { emulatorControl } from './sync-fixtures.ts';
import {
  type CalendarChoice,
  chosenReadOnly,
  type Length,
  type Model,
  type ProjectChoice,
  type Style,
  taskExists,
  touch,
  unsyncedEvent,
  WORKING_HOURS,
} from './sync-model.ts';
import { leaveReadOnlyCalendar } from './sync-model-access-commands.ts';
import { Action, length, otherLength, type Real, usableLabel } from './sync-model-actions.ts';
import type { CalendarKind } from './sync-model-calendars.ts';
import {
  adoptable,
  adoptForeignEvents,
  calendarQuiet,
  changeProjects,
  changeScope,
  projectsChangeable,
  switchAccount,
} from './sync-model-scope-changes.ts';

/**
 * What the user changes in the app: sync on or off, the calendar, its colour or category, the timebox
 * settings, task durations, the link in descriptions, and the calendar integration itself.
 */

/** Off, and on again later (the changes made meanwhile are synced then); on needs a connected calendar. */
export const switchSync = fc.boolean().map(
  (on) =>
    new Action(
      `switchSync(${on ? 'on' : 'off'})`,
      (model) => model.syncOn !== on && model.calendarConnected,
      async (model, real) => {
        await real.user.send('PATCH', '/api/settings/onsyncactive', { setting: on });
        model.syncOn = on;
      },
    ),
);

export const toggleLinkDescription = fc.constant(
  new Action(
    'toggleLinkDescription',
    (model) => model.calendarConnected,
    async (model, real) => {
      model.linkDescription = !model.linkDescription;
      await real.user.send('PATCH', '/api/calendar/todoistlinkdescription', {
        todoistLinkDescription: model.linkDescription,
      });
    },
  ),
);

/**
 * Chooses another calendar of the same account (or the first one again) on the dashboard: every linked
 * event moves there in the next run, none stays behind and none is made twice; the user's calendar
 * client follows the choice. Not while an event the user made is not yet a task (see `unsyncedEvent`).
 * The user's events already there of the colour or category the sync takes become tasks.
 */
export const switchCalendar = fc.constantFrom<CalendarChoice>(0, 1).map(
  (to) =>
    new Action(
      `switchCalendar(${to === 0 ? 'first' : 'other'})`,
      (model) =>
        model.calendarConnected &&
        model.calendar !== to &&
        // The calendar select will not take a calendar the account can only read.
        !(model.readOnly?.account === model.account && model.readOnly.calendar === to) &&
        !model.items.some(unsyncedEvent) &&
        adoptable(model, model.filter, to),
      async (model, real) => {
        const { calendar } = real.user;
        if (chosenReadOnly(model)) leaveReadOnlyCalendar(model, real);
        await real.user.send('PATCH', '/api/calendar/id', { calendarId: calendar.choices[to] });
        calendar.chosen = calendar.choices[to];
        model.calendar = to;
        model.calendarMoving = true;
        adoptForeignEvents(model);
      },
    ),
);

/**
 * Another colour (Google) or category (Microsoft) chosen for the sync to take: the user's events of it in
 * the chosen calendar become tasks; pairs stay as they are (the user's events keep their own look, ours
 * take the new one); events of the old one made from then on are foreign. Not while an event the user
 * made is not yet a task: whether a run linked it before would decide whether it stays out; and no new
 * event until the next settle (a run in flight may still take it by the old filter).
 */
export const changeFilter = fc.constant(
  new Action(
    'changeFilter',
    (model) =>
      model.calendarConnected &&
      !model.items.some(unsyncedEvent) &&
      adoptable(model, model.filter === 0 ? 1 : 0, model.calendar),
    async (model, real) => {
      const to: Style = model.filter === 0 ? 1 : 0;
      await real.user.calendar.chooseFilter(to);
      model.filter = to;
      model.filterChanged = true;
      adoptForeignEvents(model);
    },
  ),
);

/** The items of `minutes` whose task carries its label, open: a setting added or removed acts on them. */
const openOfLength = (model: Model, minutes: Length) =>
  model.items.filter(
    (item) =>
      item.outOfScope === null &&
      taskExists(item) &&
      !item.untimed &&
      item.timeboxed &&
      !item.completed &&
      item.length === minutes,
  );

/**
 * Removes a timebox setting on the dashboard (the other length keeps one), or adds it again for a label
 * Todoist has: the open tasks carrying its label keep the label and lose their events (the user's own
 * events too), or get events; done pairs stay. The dashboard reads Todoist first (§7), so a label
 * renamed meanwhile is the setting's name. A removal waits until no change on the calendar side waits
 * for a run (a new event would get this label or the nearest one); once per length between two settles.
 */
export const toggleTimeboxSetting = length.map(
  (minutes) =>
    new Action(
      `toggleTimeboxSetting(${minutes} min)`,
      (model) =>
        !model.settingChanged[minutes] &&
        // Paused (the table is disabled) while task durations are on.
        !model.durations &&
        (model.settings[minutes]
          ? model.settings[otherLength(minutes)] && calendarQuiet(model)
          : usableLabel(model, minutes)),
      async (model, real) => {
        const { user } = real;
        const add = !model.settings[minutes];
        await user.send('GET', '/api/todoist/updateuserprofile');
        if (add)
          await user.send('POST', '/api/timeboxsettings', {
            label: model.labels[minutes],
            duration: minutes,
          });
        else await user.remove(`/api/timeboxsettings/${encodeURIComponent(model.labels[minutes])}`);
        model.settings[minutes] = add;
        model.settingChanged[minutes] = true;
        for (const item of openOfLength(model, minutes)) {
          item.origin = 'task';
          // Added: whether a run made the event before a completion would decide whether it keeps one.
          item.relabelled = true;
          item.placement = null;
          touch(model, item, 'todoist');
        }
      },
    ),
);

/** Removes the calendar integration on the dashboard: the links stay, sync goes off. */
export const removeCalendar = fc.constant(
  new Action(
    'removeCalendar',
    (model) => model.calendarConnected,
    async (model, real) => {
      await real.user.disconnectCalendar();
      model.calendarConnected = false;
      model.syncOn = false;
    },
  ),
);

/** Connects the same calendar account again and switches sync on: it resumes with no duplicate. */
export const reconnectCalendar = fc.constant(
  new Action(
    'reconnectCalendar',
    (model) => !model.calendarConnected,
    (model, real) => reconnect(model, real),
  ),
);

/**
 * Switches Todoist task durations on ("sync all tasks"; the first time, the user's plan becomes
 * Premium) or off again on the dashboard. On: only tasks with Todoist's duration field are timeboxed
 * (the model's tasks made in Todoist have none), so the labelled tasks' events go, the user's own
 * too; events become tasks with a duration and no label. Off: the labels count again, and the tasks
 * with only a duration lose their events. Done pairs stay. Not while a change on the calendar side
 * waits for a run; once between two settles.
 */
/**
 * Tasks with a date but no time as all-day events, or left alone again (docs/product-rules.md §10): the
 * dated tasks' events come or go, like a change of the projects that sync.
 */
export const toggleDatedTasks = fc.constant(
  new Action(
    'toggleDatedTasks',
    (model) =>
      !model.datedChanged &&
      calendarQuiet(model) &&
      projectsChangeable(model, { datedAllDay: !model.datedAllDay }),
    async (model, real) => {
      const setting = model.datedAllDay ? 'skip' : 'allday';
      const current = await real.user.send('PATCH', '/api/settings/datedtasks', { setting });
      expect(current.todoSettings.datedTasks, 'dated tasks').toBe(setting);
      changeScope(model, { datedAllDay: !model.datedAllDay });
      model.datedChanged = true;
    },
  ),
);

/**
 * "Plan my day" on (every day, 09:00–17:00, no gap, only the chosen calendar busy) or off: on, the dated
 * tasks waiting for a time get one at the next run; off, nothing it placed moves any more.
 */
export async function switchAutoplan(model: Model, real: Real, active: boolean): Promise<void> {
  const current = await real.user.send('PATCH', '/api/settings/autoplan', {
    active,
    days: [1, 2, 3, 4, 5, 6, 7],
    start: `${String(WORKING_HOURS.start).padStart(2, '0')}:00`,
    end: `${WORKING_HOURS.end}:00`,
    gapMinutes: 0,
    otherCalendarsBusy: false,
  });
  expect(current.calendarSettings.autoplan.active, 'plan my day').toBe(active);
  model.autoplan = active;
  model.autoplanChanged = true;
  if (!active) for (const item of model.items) item.placement = null;
}

export const toggleAutoplan = fc.constant(
  new Action(
    'toggleAutoplan',
    (model) =>
      !model.autoplanChanged && model.calendarConnected && model.touched.size === 0 && !chosenReadOnly(model),
    (model, real) => switchAutoplan(model, real, !model.autoplan),
  ),
);

export const toggleTaskDurations = fc.constant(
  new Action(
    'toggleTaskDurations',
    (model) => !model.durationsChanged && calendarQuiet(model),
    async (model, real) => {
      const { user } = real;
      if (!model.premium) {
        await emulatorControl(user.todoistOrigin, `users/${encodeURIComponent(user.email)}`, {
          premiumStatus: 'current_personal_plan',
        });
        await user.send('GET', '/api/todoist/updateuserprofile');
        await user.send('PATCH', '/api/taskdurationsettings/label', { label: SYNC_ALL_TASKS });
        model.premium = true;
      }
      await user.send('PATCH', '/api/taskdurationsettings/active', { active: !model.durations });
      changeScope(model, { durations: !model.durations });
      model.durationsChanged = true;
    },
  ),
);

/**
 * Removes the calendar integration (unless it is already) and connects another calendar account: of the
 * same provider, or the other one; the user chooses its first calendar and the first colour or category,
 * and switches sync on. Nothing is written to the old account's events from then on (ours and the user's stay as they
 * were); the pairs are unlinked, the open timeboxed tasks get events in the new calendar, done ones none.
 * Not while a change on the calendar side waits for a run: the old account is no longer read.
 */
export const connectAnotherCalendar = fc.constantFrom<'same' | 'other'>('same', 'other').map(
  (provider) =>
    new Action(
      `connectAnotherCalendar(${provider} provider)`,
      (model) => calendarQuiet(model),
      async (model, real) => {
        if (model.calendarConnected) {
          await real.user.disconnectCalendar();
          model.calendarConnected = false;
          model.syncOn = false;
        }
        // A run in flight when the integration was removed may still have been writing there.
        await real.idle();
        const old = real.user.calendar;
        real.retired.push({ calendar: old, calendars: await old.listAll() });
        const kind: CalendarKind =
          provider === 'same' ? old.kind : old.kind === 'google' ? 'microsoft' : 'google';
        const email = old.email.replace(/(-account\d+)?@/, `-account${model.account + 1}@`);
        await real.user.connectCalendar(kind, email);
        switchAccount(model);
        model.calendarConnected = true;
        await real.user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
        model.syncOn = true;
      },
    ),
);

export async function reconnect(model: Model, real: Real): Promise<void> {
  await real.user.reconnectCalendar();
  model.calendarConnected = true;
  await real.user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
  model.syncOn = true;
}

/**
 * Chooses the projects to sync on the dashboard: only Work (not while it is archived: the dashboard
 * lists the active projects), or every project again. The tasks of a project that no longer syncs lose
 * their events (the user's own too), the tasks stay; those of a project that syncs again get new events,
 * from the tasks; done pairs stay; new events' tasks go to the first project that syncs. The dashboard
 * reads Todoist first (§7). Not while a change on the calendar side waits for a run; once between two
 * settles (see `projectsChanged`).
 */
export const chooseProjects = fc.constantFrom<ProjectChoice>('all', 'work').map(
  (to) =>
    new Action(
      `chooseProjects(${to === 'all' ? 'every project' : 'only Work'})`,
      (model) =>
        model.projectChoice !== to &&
        !(to === 'work' && model.workArchived) &&
        !model.projectsChanged &&
        calendarQuiet(model) &&
        projectsChangeable(model, { projectChoice: to }),
      async (model, real) => {
        const { user } = real;
        await user.openDashboard();
        const current = await user.send(
          'PATCH',
          '/api/settings/projects',
          to === 'all'
            ? { mode: 'all', projectIds: [] }
            : { mode: 'chosen', projectIds: [real.projects.work] },
        );
        expect(current.todoSettings.projectScope, 'the projects to sync').toEqual({
          mode: to === 'all' ? 'all' : 'chosen',
          projectIds: to === 'all' ? [] : [real.projects.work],
          missing: [],
        });
        changeProjects(model, { projectChoice: to });
      },
    ),
);

/**
 * The user opens the dashboard, which reads Todoist again (§7: the labels, and the project list as it
 * is now, an archived Work left out). Changes nothing the sync does.
 */
export const openDashboard = fc.constant(
  new Action(
    'openDashboard',
    () => true,
    (_model, real) => real.user.openDashboard(),
  ),
);
