import fc from 'fast-check';
import { SYNC_ALL_TASKS } from '#shared/settings/constants.ts';
import { berlinAt, emulatorControl } from './sync-fixtures.ts';
import {
  actionable,
  adoptable,
  adoptForeignEvents,
  type CalendarChoice,
  calendarQuiet,
  eventExpected,
  inScope,
  LABEL_OF,
  type Length,
  type Model,
  type ModelItem,
  newTitle,
  type Side,
  type Style,
  switchAccount,
  taskExists,
  touch,
  unsyncedEvent,
} from './sync-model.ts';
import type { CalendarKind, ModelCalendar, ModelUser, SeenCalendar } from './sync-model-calendars.ts';

/**
 * The user's actions and the world's faults as fast-check commands: each acts on the emulators the
 * way the user (through their own Todoist and calendar clients) or a failing network would, and records
 * in the model what the user meant. `settle` lets the sync catch up and compares both sides with it.
 */

/**
 * How many property runs (each plays several users' sequences), with which seed and how long a
 * sequence may be: SYNC_MODEL_RUNS, SYNC_MODEL_SEED, SYNC_MODEL_MAX_COMMANDS (`npm run test:sync-soak`).
 */
export const modelRunOptions = {
  runsFor: (database: string) => Number(process.env.SYNC_MODEL_RUNS ?? (database === 'PGlite' ? 50 : 13)),
  seed: process.env.SYNC_MODEL_SEED ? Number(process.env.SYNC_MODEL_SEED) : undefined,
  /** With the seed, replays one run: the path a failure printed (its shrunk counterexample). */
  path: process.env.SYNC_MODEL_PATH || undefined,
  maxCommands: Number(process.env.SYNC_MODEL_MAX_COMMANDS ?? 12),
};

export type Real = {
  /** The user, with their own Todoist client and their calendar (Google or Microsoft 365). */
  user: ModelUser;
  /** The day every item is planned on (tomorrow when the sequence began). */
  day: string;
  taskIds: Map<number, string>;
  eventIds: Map<number, string>;
  /** The access token the app (not the user's own client) uses with a provider for this user. */
  appToken(provider: Provider): Promise<string>;
  /** Lets the sync finish, checks both sides against the model, and learns the ids of new items. */
  settle(model: Model): Promise<void>;
  /** Waits until a run of the user asked for now has ended (and so any run in flight before it). */
  idle(): Promise<void>;
  /**
   * Calendar accounts connected before the one connected now, with every event they held when the
   * user connected another one: nothing may be written there since.
   */
  retired: { calendar: ModelCalendar; calendars: SeenCalendar[] }[];
};

type Step = fc.AsyncCommand<Model, Real>;
type Provider = 'todoist' | 'calendar';

class Action implements Step {
  readonly #label: string;
  readonly #can: (model: Readonly<Model>) => boolean;
  readonly #act: (model: Model, real: Real) => Promise<void>;
  constructor(
    label: string,
    can: (model: Readonly<Model>) => boolean,
    act: (model: Model, real: Real) => Promise<void>,
  ) {
    this.#label = label;
    this.#can = can;
    this.#act = act;
  }
  check(model: Readonly<Model>): boolean {
    return this.#can(model);
  }
  run(model: Model, real: Real): Promise<void> {
    return this.#act(model, real);
  }
  toString(): string {
    return this.#label;
  }
}

/** An action on one of the items `eligible` selects; `pick` chooses among them when it runs. */
function onItem(
  label: string,
  pick: number,
  side: Side,
  eligible: (model: Readonly<Model>, item: ModelItem) => boolean,
  act: (model: Model, real: Real, item: ModelItem) => Promise<void>,
): Step {
  const candidates = (model: Readonly<Model>) =>
    model.items.filter((item) => actionable(model, item, side) && eligible(model, item));
  return new Action(
    `${label}#${pick}`,
    (model) => candidates(model).length > 0,
    async (model, real) => {
      const list = candidates(model);
      const item = list[pick % list.length] as ModelItem;
      await act(model, real, item);
      touch(model, item, side);
    },
  );
}

const idOf = (ids: Map<number, string>, item: ModelItem) => {
  const id = ids.get(item.id);
  if (!id) throw new Error(`the model's item ${item.id} (${item.title}) has no known id`);
  return id;
};

const hour = fc.integer({ min: 7, max: 20 });
const length = fc.constantFrom<Length>(30, 60);
const pick = fc.nat(20);

const startOn = (real: Real, at: number) => berlinAt(real.day, at).instant;

const openTimeboxed = (model: Readonly<Model>, item: ModelItem) => inScope(model, item) && !item.completed;
/** A label the user may put on a task: not deleted in Todoist. */
const usableLabel = (model: Readonly<Model>, minutes: Length) => !model.labelDeleted[minutes];
/** A length the sync takes an event of as it is (a timebox setting has it). */
const timeboxLength = (model: Readonly<Model>, minutes: Length) => model.settings[minutes];
const otherLength = (minutes: Length): Length => (minutes === 30 ? 60 : 30);
const ourOpenEvent = (model: Readonly<Model>, item: ModelItem) =>
  item.outOfScope === null && !item.completed && eventExpected(model as Model, item);

// ---- Todoist side ----

const addTask = fc
  .record({ at: hour, length, unlabelled: fc.boolean() })
  .map(({ at, length: minutes, unlabelled }) => {
    return new Action(
      `addTask(${at}:00, ${unlabelled ? 'no label' : `${minutes} min`})`,
      (model) => unlabelled || usableLabel(model, minutes),
      async (model, real) => {
        const title = newTitle(model);
        const task = await real.user.todoist.addTask({
          content: title,
          labels: unlabelled ? [] : [model.labels[minutes]],
          dueString: `${real.day} at ${at}:00`,
        });
        const item: ModelItem = {
          id: model.items.length,
          origin: 'task',
          outOfScope: unlabelled ? 'unlabelled-task' : null,
          title,
          hour: at,
          length: minutes,
          timeboxed: !unlabelled,
          durationField: false,
          completed: false,
          taskDeleted: false,
          eventDeleted: false,
          untimed: false,
          createdOn: 'todoist',
          relabelled: false,
          calendar: model.calendar,
          account: model.account,
          style: model.filter,
          eventLeftBehind: false,
        };
        model.items.push(item);
        real.taskIds.set(item.id, task.id);
        touch(model, item, 'todoist');
      },
    );
  });

const retitleTask = pick.map((n) =>
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

const moveTask = fc.tuple(pick, hour).map(([n, at]) =>
  onItem(
    `moveTask(${at}:00)`,
    n,
    'todoist',
    (model, item) =>
      openTimeboxed(model, item) || (item.outOfScope === 'unlabelled-task' && !item.taskDeleted),
    async (_model, real, item) => {
      await real.user.todoist.updateTask(idOf(real.taskIds, item), { dueString: `${real.day} at ${at}:00` });
      item.hour = at;
    },
  ),
);

/** To a label that is not deleted and has a timebox setting (another length's event stays in scope). */
const relabelTask = fc.tuple(pick, length).map(([n, minutes]) =>
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
    },
  ),
);

/**
 * Takes the timebox label off (the event goes) or puts it back (a new event comes, when the label has a
 * setting); a deleted label is not put back.
 */
const toggleTimebox = pick.map((n) =>
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
    },
  ),
);

/**
 * Only an item both sides know, whose link still stands: whether a run saw a new task (or a label
 * taken off and put back) before it was done would otherwise decide whether it gets an event at all.
 * Changes made to the task just before are fine: completion carries them to the event.
 */
const completeTask = pick.map((n) =>
  onItem(
    'completeTask',
    n,
    'todoist',
    (model, item) => openTimeboxed(model, item) && item.createdOn === null && !item.relabelled,
    async (_model, real, item) => {
      await real.user.todoist.closeTask(idOf(real.taskIds, item));
      item.completed = true;
    },
  ),
);

/**
 * Undoes what completion did. A task whose label was deleted or lost its setting while it was done is
 * out of scope once open: its event goes (docs/product-rules.md §10, "a task out of scope deletes its
 * event"). A task done while another account's pairs were unlinked gets an event in the account now.
 */
const reopenTask = pick.map((n) =>
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
      }
    },
  ),
);

/**
 * Renames a timebox label in Todoist (which renames it on every task): the setting follows the label,
 * so nothing else changes, every timeboxed task keeps its event, and later adds use the new name.
 */
const renameLabel = length.map(
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
const deleteLabel = length.map(
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
          touch(model, item, 'todoist');
        }
      },
    ),
);

const deleteTask = pick.map((n) =>
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

// ---- Calendar side ----

const addEvent = fc
  .record({ at: hour, length, foreign: fc.boolean() })
  .map(({ at, length: minutes, foreign }) => {
    return new Action(
      `addEvent(${at}:00, ${minutes} min${foreign ? ', foreign colour or category' : ''})`,
      // The sync takes it with the length of a timebox setting (else the task gets the nearest one), or
      // as the duration field while task durations are on; not while a run may still judge it by the
      // filter or mode before a change.
      (model) =>
        !model.filterChanged &&
        !model.durationsChanged &&
        (foreign || model.durations || timeboxLength(model, minutes)),
      async (model, real) => {
        const title = newTitle(model);
        const style: Style = foreign ? (model.filter === 0 ? 1 : 0) : model.filter;
        const id = await real.user.calendar.add(title, startOn(real, at), minutes, style);
        const item: ModelItem = {
          id: model.items.length,
          origin: 'event',
          outOfScope: foreign ? 'foreign-event' : null,
          title,
          hour: at,
          length: minutes,
          timeboxed: !model.durations,
          durationField: model.durations,
          completed: false,
          taskDeleted: false,
          eventDeleted: false,
          untimed: false,
          createdOn: 'calendar',
          relabelled: false,
          calendar: model.calendar,
          account: model.account,
          style,
          eventLeftBehind: false,
        };
        model.items.push(item);
        real.eventIds.set(item.id, id);
        touch(model, item, 'calendar');
      },
    );
  });

const moveEvent = fc.tuple(pick, hour).map(([n, at]) =>
  onItem(`moveEvent(${at}:00)`, n, 'calendar', ourOpenEvent, async (_model, real, item) => {
    await real.user.calendar.move(idOf(real.eventIds, item), startOn(real, at), item.length);
    item.hour = at;
  }),
);

const resizeEvent = fc.tuple(pick, length).map(([n, minutes]) =>
  onItem(
    `resizeEvent(${minutes} min)`,
    n,
    'calendar',
    (model, item) => ourOpenEvent(model, item) && (model.durations || timeboxLength(model, minutes)),
    async (_model, real, item) => {
      await real.user.calendar.move(idOf(real.eventIds, item), startOn(real, item.hour), minutes);
      item.length = minutes;
    },
  ),
);

const retitleEvent = pick.map((n) =>
  onItem('retitleEvent', n, 'calendar', ourOpenEvent, async (model, real, item) => {
    item.title = newTitle(model);
    await real.user.calendar.retitle(idOf(real.eventIds, item), item.title);
  }),
);

const deleteEvent = pick.map((n) =>
  onItem('deleteEvent', n, 'calendar', ourOpenEvent, async (_model, real, item) => {
    await real.user.calendar.delete(idOf(real.eventIds, item));
    item.eventDeleted = true;
    // The task the event made goes with it; a task that existed first keeps its date, not its time.
    if (item.origin === 'event') item.taskDeleted = true;
    else item.untimed = true;
  }),
);

// ---- Settings ----

/** Off, and on again later (the changes made meanwhile are synced then); on needs a connected calendar. */
const switchSync = fc.boolean().map(
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

const toggleLinkDescription = fc.constant(
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
const switchCalendar = fc.constantFrom<CalendarChoice>(0, 1).map(
  (to) =>
    new Action(
      `switchCalendar(${to === 0 ? 'first' : 'other'})`,
      (model) =>
        model.calendarConnected &&
        model.calendar !== to &&
        !model.items.some(unsyncedEvent) &&
        adoptable(model, model.filter, to),
      async (model, real) => {
        const { calendar } = real.user;
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
const changeFilter = fc.constant(
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
const toggleTimeboxSetting = length.map(
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
          touch(model, item, 'todoist');
        }
      },
    ),
);

/** Removes the calendar integration on the dashboard: the links stay, sync goes off. */
const removeCalendar = fc.constant(
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
const reconnectCalendar = fc.constant(
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
const toggleTaskDurations = fc.constant(
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
      const before = model.items.map((item) => inScope(model, item));
      model.durations = !model.durations;
      await user.send('PATCH', '/api/taskdurationsettings/active', { active: model.durations });
      model.durationsChanged = true;
      model.items.forEach((item, index) => {
        if (item.completed || !taskExists(item) || before[index] === inScope(model, item)) return;
        item.origin = 'task';
        item.relabelled = true;
        touch(model, item, 'todoist');
      });
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
const connectAnotherCalendar = fc.constantFrom<'same' | 'other'>('same', 'other').map(
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

const settle = fc.constant(
  new Action(
    'settle',
    () => true,
    (model, real) => real.settle(model),
  ),
);

// ---- Faults ----

const provider = fc.constantFrom<Provider>('todoist', 'calendar');

const originOf = (real: Real, name: Provider) =>
  name === 'todoist' ? real.user.todoistOrigin : real.user.calendar.origin;

/**
 * A failing provider, for the app's requests only (the user's own client is not affected): throttled,
 * failing, answering a write with an error after making it, slow (1.5 s), or never answering (the app
 * gives up after its provider deadline, 2 s in the test).
 */
const providerFault = fc
  .record({
    provider,
    kind: fc.constantFrom('rate-limit', 'status', 'lose-response', 'latency', 'hang'),
    method: fc.constantFrom('POST', 'PATCH', 'DELETE', 'GET'),
    status: fc.constantFrom(500, 502, 503),
    times: fc.integer({ min: 1, max: 2 }),
  })
  .map(({ provider: name, kind, method, status, times }) => {
    // Todoist takes reads and writes as POST /sync; the calendars write with POST, PATCH and DELETE.
    const match = name === 'todoist' ? { method: 'POST' } : kind === 'lose-response' ? { method } : {};
    const rule = {
      kind,
      times,
      ...match,
      ...(kind === 'rate-limit' ? { retryAfterSeconds: 1 } : {}),
      ...(kind === 'status' || kind === 'lose-response' ? { status } : {}),
      ...(kind === 'latency' ? { latencyMs: 1500 } : {}),
    };
    return new Action(
      `fault(${name}, ${JSON.stringify(rule)})`,
      // Aimed at the app's token: none while the calendar is not connected.
      (model) => name === 'todoist' || model.calendarConnected,
      async (_model, real) => {
        await emulatorControl(originOf(real, name), 'faults', {
          ...rule,
          bearer: await real.appToken(name),
        });
      },
    );
  });

/** Notifications lost, sent twice, out of order or late (affects whichever user's come next). */
const notificationFault = fc
  .record({
    provider,
    mode: fc.constantFrom('drop', 'duplicate', 'reorder', 'delay'),
    times: fc.integer({ min: 1, max: 3 }),
  })
  .map(
    ({ provider: name, mode, times }) =>
      new Action(
        `notificationFault(${name}, ${mode} ×${times})`,
        () => true,
        async (_model, real) => {
          await emulatorControl(originOf(real, name), 'notifications/faults', {
            mode,
            times,
            ...(mode === 'delay' ? { delayMs: 1500 } : {}),
          });
        },
      ),
  );

/** The calendar forgets the app's sync token (Google answers 410) or delta token (Graph). */
const expireSyncToken = fc.constant(
  new Action(
    'expireSyncToken',
    () => true,
    (_model, real) => real.user.calendar.expireSyncState(),
  ),
);

/** The calendar's push channel (Google channel, Graph subscription) goes quiet before its time. */
const expireChannel = fc.constant(
  new Action(
    'expireChannel',
    () => true,
    (_model, real) => real.user.calendar.expireChannel(),
  ),
);

/** Random sequences of what a user and the world do to one account. */
export function userSequences(maxCommands: number) {
  return fc.commands(
    [
      ...Array(4).fill(addTask),
      ...Array(3).fill(addEvent),
      retitleTask,
      moveTask,
      relabelTask,
      toggleTimebox,
      completeTask,
      reopenTask,
      deleteTask,
      moveEvent,
      resizeEvent,
      retitleEvent,
      deleteEvent,
      renameLabel,
      deleteLabel,
      toggleTimeboxSetting,
      changeFilter,
      ...Array(2).fill(switchSync),
      ...Array(3).fill(switchCalendar),
      removeCalendar,
      reconnectCalendar,
      connectAnotherCalendar,
      toggleTaskDurations,
      toggleLinkDescription,
      ...Array(3).fill(settle),
      providerFault,
      providerFault,
      notificationFault,
      expireSyncToken,
      expireChannel,
    ],
    { maxCommands },
  );
}

/** What one user of a property run does: their completion setting, their calendar and their sequence. */
export type UserPlan = { onComplete: Model['onComplete']; calendar: CalendarKind; commands: Iterable<Step> };

/** `count` users' plans, each with any completion setting, either calendar and a random sequence. */
export function userPlans(count: number, maxCommands: number): fc.Arbitrary<UserPlan[]> {
  return fc.array(
    fc.record({
      onComplete: fc.constantFrom<Model['onComplete']>('nothing', 'checkmark', 'remove'),
      calendar: fc.constantFrom<CalendarKind>('google', 'microsoft'),
      commands: userSequences(maxCommands),
    }),
    { minLength: count, maxLength: count },
  );
}
