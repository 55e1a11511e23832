import fc from 'fast-check';
import { berlinAt, emulatorControl } from './sync-fixtures.ts';
import {
  actionable,
  type CalendarChoice,
  eventExpected,
  inScope,
  LABEL_OF,
  type Length,
  type Model,
  type ModelItem,
  newTitle,
  type Side,
  taskExists,
  touch,
  unsyncedEvent,
} from './sync-model.ts';
import type { CalendarKind, ModelUser } from './sync-model-calendars.ts';

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

const openTimeboxed = (_model: Readonly<Model>, item: ModelItem) => inScope(item) && !item.completed;
const ourOpenEvent = (model: Readonly<Model>, item: ModelItem) =>
  item.outOfScope === null && !item.completed && eventExpected(model as Model, item);

// ---- Todoist side ----

const addTask = fc
  .record({ at: hour, length, unlabelled: fc.boolean() })
  .map(({ at, length: minutes, unlabelled }) => {
    return new Action(
      `addTask(${at}:00, ${unlabelled ? 'no label' : `${minutes} min`})`,
      () => true,
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
          completed: false,
          taskDeleted: false,
          eventDeleted: false,
          untimed: false,
          createdOn: 'todoist',
          relabelled: false,
          calendar: model.calendar,
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

const relabelTask = fc.tuple(pick, length).map(([n, minutes]) =>
  onItem(`relabelTask(${minutes} min)`, n, 'todoist', openTimeboxed, async (model, real, item) => {
    await real.user.todoist.updateTask(idOf(real.taskIds, item), { labels: [model.labels[minutes]] });
    item.length = minutes;
  }),
);

/** Takes the timebox label off (the event goes) or puts it back (a new event comes). */
const toggleTimebox = pick.map((n) =>
  onItem(
    'toggleTimebox',
    n,
    'todoist',
    (_m, item) => item.outOfScope === null && taskExists(item) && !item.untimed && !item.completed,
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

const reopenTask = pick.map((n) =>
  onItem(
    'reopenTask',
    n,
    'todoist',
    (_m, item) => item.completed && taskExists(item),
    async (_model, real, item) => {
      await real.user.todoist.reopenTask(idOf(real.taskIds, item));
      item.completed = false;
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
      () => true,
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
      () => true,
      async (model, real) => {
        const title = newTitle(model);
        const id = await real.user.calendar.add(title, startOn(real, at), minutes, foreign);
        const item: ModelItem = {
          id: model.items.length,
          origin: 'event',
          outOfScope: foreign ? 'foreign-event' : null,
          title,
          hour: at,
          length: minutes,
          timeboxed: true,
          completed: false,
          taskDeleted: false,
          eventDeleted: false,
          untimed: false,
          createdOn: 'calendar',
          relabelled: false,
          calendar: model.calendar,
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
  onItem(`resizeEvent(${minutes} min)`, n, 'calendar', ourOpenEvent, async (_model, real, item) => {
    await real.user.calendar.move(idOf(real.eventIds, item), startOn(real, item.hour), minutes);
    item.length = minutes;
  }),
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
 */
const switchCalendar = fc.constantFrom<CalendarChoice>(0, 1).map(
  (to) =>
    new Action(
      `switchCalendar(${to === 0 ? 'first' : 'other'})`,
      (model) => model.calendarConnected && model.calendar !== to && !model.items.some(unsyncedEvent),
      async (model, real) => {
        const { calendar } = real.user;
        await real.user.send('PATCH', '/api/calendar/id', { calendarId: calendar.choices[to] });
        calendar.chosen = calendar.choices[to];
        model.calendar = to;
        model.calendarMoving = true;
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
      ...Array(2).fill(switchSync),
      ...Array(3).fill(switchCalendar),
      removeCalendar,
      reconnectCalendar,
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
