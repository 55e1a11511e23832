import type { OnComplete } from '#shared/settings/constants.ts';

/**
 * The model of one user's Todoist and calendar for the model-based sync tests: what the user did on
 * each side, and from that what both sides must show once the sync has settled. Pure; the commands
 * that act on the emulators and compare them with this model are in `sync-model-commands.ts`.
 *
 * Between two settles an item is changed from one side only (the first side that touches it); what
 * happens when both sides change the same item between two runs ("the later side wins") is decided
 * by timestamps and is tested in the planner's unit tests, not here.
 */

export type Side = 'todoist' | 'calendar';
export type Length = 30 | 60;

/** The Todoist labels of the 30- and 60-minute timeboxes when a sequence begins (a rename changes `Model.labels`). */
export const LABEL_OF: Record<Length, string> = { 30: '30min', 60: '1h' };

/** Which of the account's calendars: the one chosen at the start, or another one of the same account. */
export type CalendarChoice = 0 | 1;

/**
 * An event's colour (Google) or category (Microsoft), as one of the two the model knows: 0 is the one the
 * sync takes when a sequence begins (Google: no colour; Microsoft: 'Blue category'), 1 the other.
 */
export type Style = 0 | 1;

/**
 * The Todoist project a task is in: the Inbox, or "Work", the one other project the user has from the
 * start of a sequence (docs/product-rules.md §10 "Projects").
 */
export type Project = 'inbox' | 'work';
/** The projects to sync chosen on the dashboard: every project, or only Work (with its sub-projects). */
export type ProjectChoice = 'all' | 'work';

export type ModelItem = {
  id: number;
  /** Where the sync link started: decides what deleting the event does to the task. */
  origin: 'task' | 'event';
  /** Never synced: a task without a timebox label, or an event of a colour or category the sync does not take. */
  outOfScope: 'unlabelled-task' | 'foreign-event' | null;
  title: string;
  hour: number;
  length: Length;
  /** The task carries its timebox label. */
  timeboxed: boolean;
  /**
   * The task carries Todoist's duration field (of `length` minutes) and no label: made from an event
   * while task durations were on. Only such tasks are timeboxed while they are on.
   */
  durationField: boolean;
  completed: boolean;
  taskDeleted: boolean;
  eventDeleted: boolean;
  /** Its event was deleted while the task existed first: the task keeps its date, not its time. */
  untimed: boolean;
  /**
   * The task has a date but no time and keeps its timebox label: while dated tasks are all-day events
   * its event is an all-day one on the day (docs/product-rules.md §10 "Tasks with a date but no time").
   */
  dated: boolean;
  /**
   * 'app': "Plan my day" gave the task its time, and nobody changed it since (the app may move it). The
   * model does not predict where it goes: a settle reads the time and checks the rules it must follow.
   * 'either': done and reopened since the settle, so whether a run saw it done decides (a settle reads
   * which).
   */
  placement: 'app' | 'either' | null;
  /** The side it was created on, until a settle has shown it on both. */
  createdOn: Side | null;
  /** Its timebox label was taken off or put back since the last settle (the link may have ended). */
  relabelled: boolean;
  /**
   * The calendar its event was made in. A foreign event stays there; a synced one follows the chosen
   * calendar (a switch moves every linked event).
   */
  calendar: CalendarChoice;
  /** The calendar account (0: the first one connected) its event was made in; a foreign event stays there. */
  account: number;
  /** The colour or category the user gave the event (an event the user made keeps it). */
  style: Style;
  /**
   * Done while the pairs of another account were unlinked: its event stayed there, and it has none in
   * the account connected now (reopened, it gets one).
   */
  eventLeftBehind: boolean;
  /**
   * The user moved its event into a calendar the sync never reads ("Elsewhere"), under this title: for
   * the sync that event is gone (docs/product-rules.md §10 "Moved to another calendar"); it stays there,
   * as the user left it, ours (tagged) or not. Null: not moved away.
   */
  movedAway: string | null;
  /**
   * The Todoist project of its task (an event's: the one its task was made in, or will be). A task
   * syncs only while its project does (`projectSyncs`).
   */
  project: Project;
};

export type Model = {
  prefix: string;
  items: ModelItem[];
  /** Which side changed an item since the last settle. */
  touched: Map<number, Side>;
  syncOn: boolean;
  linkDescription: boolean;
  onComplete: OnComplete;
  nextTitle: number;
  /** The name of the 30- and 60-minute timebox labels in Todoist now (the settings follow a rename). */
  labels: Record<Length, string>;
  renames: number;
  /** The calendar chosen in the app. */
  calendar: CalendarChoice;
  /**
   * Another calendar was chosen since the last settle: the linked events move there in the next run,
   * so until a settle the user cannot tell which calendar an event is in, and leaves them alone.
   */
  calendarMoving: boolean;
  /** The calendar integration is connected (removing it keeps the links and switches sync off). */
  calendarConnected: boolean;
  /** A timebox setting exists for the length (the user removed it, or added it again, on the dashboard). */
  settings: Record<Length, boolean>;
  /**
   * The length's setting was removed or added since the last settle: changed back before a run saw it,
   * the scope would be as before and the pairs kept, so it is not changed again until a settle.
   */
  settingChanged: Record<Length, boolean>;
  /**
   * The colour or category filter changed since the last settle: a run that loaded the settings just
   * before the change may still take the user's next event by the old filter, so no event is added
   * until a settle.
   */
  filterChanged: boolean;
  /**
   * The length's label was deleted in Todoist: the setting stays under its name (the "missing in
   * Todoist" row) and events of that length still become tasks carrying the name; the user no longer
   * puts it on a task.
   */
  labelDeleted: Record<Length, boolean>;
  /** The colour (Google) or category (Microsoft) whose events the sync takes. */
  filter: Style;
  /** The calendar account connected now (another one connected after the integration was removed). */
  account: number;
  /**
   * Task durations are on ("sync all tasks"): a task is timeboxed by Todoist's duration field, the
   * timebox settings are paused, and events become tasks with a duration and no label.
   */
  durations: boolean;
  /** Switched since the last settle: not switched back until a settle (see `settingChanged`). */
  durationsChanged: boolean;
  /** The user's Todoist plan has task durations (Premium); set the first time they are switched on. */
  premium: boolean;
  /** The projects to sync chosen on the dashboard. */
  projectChoice: ProjectChoice;
  /** Work is archived in Todoist: its tasks leave Todoist's active lists and the sync. */
  workArchived: boolean;
  /**
   * The projects to sync were chosen, or Work archived or unarchived, since the last settle: a run in
   * flight may still judge a new event by the old projects, so no event is added until a settle, and
   * (like `settingChanged`) the projects are not changed again until then.
   */
  projectsChanged: boolean;
  /** Tasks with a date but no time are all-day events (else left alone, the default). */
  datedAllDay: boolean;
  /** Switched since the last settle: not switched back until a settle (see `settingChanged`). */
  datedChanged: boolean;
  /** "Plan my day" is on (every day, 09:00–17:00, no gap, only the chosen calendar busy). */
  autoplan: boolean;
  /** Switched since the last settle: not switched back until a settle. */
  autoplanChanged: boolean;
  /**
   * The calendar of an account that the account can only read since its owner shared it read only
   * (once a sequence); null while it can write to all of them.
   */
  readOnly: { account: number; calendar: CalendarChoice } | null;
  /**
   * A provider refuses the app's writes of a kind for good now (`refuseWrites`), until lifted; null while
   * it takes them. `items`: the pairs a settle found refused (left alone by the user until the lift);
   * `changes`: how often the user changed each item meanwhile (a change to an item is tried at once).
   */
  refusal: ModelRefusal | null;
  /** The app's clock can be moved past a back-off (an app in this process): refusals may be played. */
  clockMovable: boolean;
};

/**
 * What a provider refuses for good (docs/provider-facts.md §12): the calendar the app's event creates,
 * updates or both; Todoist the app's task updates.
 */
export type RefusalKind = 'event-create' | 'event-update' | 'event-writes' | 'task-update';
export type ModelRefusal = { kind: RefusalKind; items: Set<number>; changes: Map<number, number> };
/** The side whose writes a refusal of `kind` refuses. */
export const refusedSide = (kind: RefusalKind): Side => (kind === 'task-update' ? 'todoist' : 'calendar');

/** "Plan my day"'s working hours in the model: every day, 09:00 to 17:00. */
export const WORKING_HOURS = { start: 9, end: 17 } as const;

export function initialModel(prefix: string, onComplete: OnComplete): Model {
  return {
    prefix,
    items: [],
    touched: new Map(),
    syncOn: true,
    linkDescription: false,
    onComplete,
    nextTitle: 1,
    labels: { ...LABEL_OF },
    renames: 0,
    calendar: 0,
    calendarMoving: false,
    calendarConnected: true,
    settings: { 30: true, 60: true },
    settingChanged: { 30: false, 60: false },
    filterChanged: false,
    labelDeleted: { 30: false, 60: false },
    filter: 0,
    account: 0,
    durations: false,
    durationsChanged: false,
    premium: false,
    projectChoice: 'all',
    workArchived: false,
    projectsChanged: false,
    datedAllDay: false,
    datedChanged: false,
    autoplan: false,
    autoplanChanged: false,
    readOnly: null,
    refusal: null,
    clockMovable: false,
  };
}

/**
 * The chosen calendar can only be read: the sync stops with the "calendar missing" problem, and the
 * user (whose own client is refused there too) changes nothing in it.
 */
export const chosenReadOnly = (model: Readonly<Model>) =>
  model.readOnly !== null &&
  model.readOnly.account === model.account &&
  model.readOnly.calendar === model.calendar;

/**
 * Whether `side` may change the item now: it is known there, and the other side has not changed it; on
 * the calendar, not while its event may still be moving to a newly chosen calendar.
 */
export function actionable(model: Model, item: ModelItem, side: Side): boolean {
  // Where "Plan my day" puts a task, or moves a block it placed, is learned at the next settle; the user
  // leaves such an item alone until then (a change racing the app's own write is not modelled).
  if (waitingForTime(model, item)) return false;
  if (item.placement === 'app' && model.touched.size > 0) return false;
  // A pair whose write is refused waits for the refusal to be lifted (a change is tried at once, which
  // the sync's own tests show; the model keeps its count of tries simple).
  if (model.refusal?.items.has(item.id)) return false;
  const touchedBy = model.touched.get(item.id);
  if (touchedBy !== undefined && touchedBy !== side) return false;
  // A task of an archived project is out of the user's sight in Todoist until it is unarchived.
  if (side === 'todoist' && item.outOfScope !== 'foreign-event' && !listed(model, item)) return false;
  if (side === 'calendar' && model.calendarMoving && item.createdOn !== 'calendar') return false;
  if (side === 'calendar' && chosenReadOnly(model)) return false;
  return item.createdOn === null || item.createdOn === side;
}

/**
 * An event the user made in the calendar that no settle has shown as a task yet: whether a run links it
 * before the user chooses another calendar decides whether it moves there, so no switch meanwhile.
 */
export const unsyncedEvent = (item: ModelItem) =>
  item.createdOn === 'calendar' && item.outOfScope === null && !item.eventDeleted;

export function touch(model: Model, item: ModelItem, side: Side): void {
  model.touched.set(item.id, side);
  model.refusal?.changes.set(item.id, (model.refusal.changes.get(item.id) ?? 0) + 1);
}

export const taskExists = (item: ModelItem) => item.outOfScope !== 'foreign-event' && !item.taskDeleted;

/**
 * Whether the project's tasks sync: it is not archived, and every project syncs or it is the one chosen
 * (docs/product-rules.md §10 "Projects").
 */
export const projectSyncs = (
  model: Readonly<Pick<Model, 'projectChoice' | 'workArchived'>>,
  project: Project,
) => !(project === 'work' && model.workArchived) && (model.projectChoice === 'all' || project === 'work');

/**
 * The project a task made from an event goes to (the event project is the Inbox, the default): the
 * Inbox while it syncs, else the first project that does; null while no project syncs (only Work
 * chosen, and archived): then no event becomes a task.
 */
export const eventProject = (
  model: Readonly<Pick<Model, 'projectChoice' | 'workArchived'>>,
): Project | null => (projectSyncs(model, 'inbox') ? 'inbox' : projectSyncs(model, 'work') ? 'work' : null);

/** The task is in Todoist's active lists (REST `getTasks`): its project is not archived. */
export const listed = (model: Readonly<Pick<Model, 'workArchived'>>, item: ModelItem) =>
  !(item.project === 'work' && model.workArchived);

/**
 * In the sync: a task with a time (or a date, while dated tasks are all-day events) carrying a timebox
 * label that has a setting, or, while task durations are on, Todoist's duration field; in a project that
 * syncs.
 */
export const inScope = (
  model: Readonly<Pick<Model, 'durations' | 'settings' | 'projectChoice' | 'workArchived' | 'datedAllDay'>>,
  item: ModelItem,
) =>
  item.outOfScope === null &&
  !item.taskDeleted &&
  !item.untimed &&
  (!item.dated || model.datedAllDay) &&
  projectSyncs(model, item.project) &&
  (model.durations ? item.durationField : item.timeboxed && model.settings[item.length]);

/**
 * A dated task "Plan my day" gives a time at the next run (or leaves dated when its day is full): open,
 * timeboxed as an all-day task would be, while it is on.
 */
export const waitingForTime = (model: Readonly<Model>, item: ModelItem) =>
  model.autoplan && item.dated && !item.completed && inScope({ ...model, datedAllDay: true }, item);

/**
 * Whether the item has an event (in the chosen calendar, or for a foreign one where it was made). A done
 * task keeps the event its completion left, whatever happened to its label or setting since (done pairs
 * are left as they are); reopened, it is judged like any open task.
 */
export const eventExpected = (model: Readonly<Model>, item: ModelItem) => {
  if (item.outOfScope === 'foreign-event') return !item.eventDeleted;
  if (item.outOfScope !== null || item.taskDeleted || item.untimed || item.eventDeleted) return false;
  if (item.completed) return !item.eventLeftBehind && model.onComplete !== 'remove';
  return inScope(model, item);
};

export type ExpectedEvent = {
  item: ModelItem;
  summary: string;
  /** Null: an all-day event on the day (a dated task's). */
  hour: number | null;
  minutes: number;
  /** Checked only on events the sync made and styles (a task's, open). */
  linkDescription: boolean | null;
  /**
   * Its colour or category: an event the user made keeps its own, an open task's event takes the
   * filter's; null (not checked) on a done task's event, styled when it was done.
   */
  style: Style | null;
};

export type ExpectedTask = {
  item: ModelItem;
  content: string;
  checked: boolean;
  /** null: a date without a time. */
  hour: number | null;
  labels: string[];
  /** Todoist's duration field in minutes, null for none. */
  duration: number | null;
  project: Project;
  /** In Todoist's active lists (REST `getTasks`): not in an archived project. */
  listed: boolean;
};

/**
 * The events the calendar `calendar` must hold: in the chosen one every synced event and the foreign
 * events made there; in any other, only the foreign events made there (none of ours stays behind).
 */
export function expectedEvents(
  model: Model,
  calendar: CalendarChoice | null = model.calendar,
): ExpectedEvent[] {
  return model.items
    .filter(
      (item) =>
        eventExpected(model, item) &&
        (item.outOfScope === 'foreign-event'
          ? item.account === model.account && item.calendar === calendar
          : calendar === model.calendar),
    )
    .map((item) => ({
      item,
      summary: item.completed && model.onComplete === 'checkmark' ? `✓ ${item.title}` : item.title,
      hour: item.dated ? null : item.hour,
      minutes: item.length,
      linkDescription:
        item.outOfScope === null && item.origin === 'task' && !item.completed ? model.linkDescription : null,
      style:
        item.outOfScope !== null || item.origin === 'event'
          ? item.style
          : item.completed
            ? null
            : model.filter,
    }));
}

export function expectedTasks(model: Model): ExpectedTask[] {
  return model.items.filter(taskExists).map((item) => ({
    item,
    content: item.title,
    checked: item.completed,
    hour: item.untimed || item.dated ? null : item.hour,
    labels: item.outOfScope === null && item.timeboxed && !item.untimed ? [model.labels[item.length]] : [],
    duration: item.durationField ? item.length : null,
    project: item.project,
    listed: listed(model, item),
  }));
}

/** After a settle every item is known on both sides, and either side may change it again. */
export function settled(model: Model): void {
  model.touched.clear();
  model.calendarMoving = false;
  model.settingChanged = { 30: false, 60: false };
  model.filterChanged = false;
  model.durationsChanged = false;
  model.projectsChanged = false;
  model.datedChanged = false;
  model.autoplanChanged = false;
  for (const item of model.items) {
    item.createdOn = null;
    item.relabelled = false;
  }
}
