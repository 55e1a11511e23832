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
  completed: boolean;
  taskDeleted: boolean;
  eventDeleted: boolean;
  /** Its event was deleted while the task existed first: the task keeps its date, not its time. */
  untimed: boolean;
  /** The side it was created on, until a settle has shown it on both. */
  createdOn: Side | null;
  /** Its timebox label was taken off or put back since the last settle (the link may have ended). */
  relabelled: boolean;
  /**
   * The calendar its event was made in. A foreign event stays there; a synced one follows the chosen
   * calendar (a switch moves every linked event).
   */
  calendar: CalendarChoice;
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
};

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
  };
}

export function newTitle(model: Model): string {
  const title = `${model.prefix} ${model.nextTitle}`;
  model.nextTitle += 1;
  return title;
}

/**
 * Whether `side` may change the item now: it is known there, and the other side has not changed it; on
 * the calendar, not while its event may still be moving to a newly chosen calendar.
 */
export function actionable(model: Model, item: ModelItem, side: Side): boolean {
  const touchedBy = model.touched.get(item.id);
  if (touchedBy !== undefined && touchedBy !== side) return false;
  if (side === 'calendar' && model.calendarMoving && item.createdOn !== 'calendar') return false;
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
}

export const taskExists = (item: ModelItem) => item.outOfScope !== 'foreign-event' && !item.taskDeleted;

/** In the sync: a timeboxed task with a time (open or done). */
export const inScope = (item: ModelItem) =>
  item.outOfScope === null && !item.taskDeleted && !item.untimed && item.timeboxed;

export const eventExpected = (model: Model, item: ModelItem) => {
  if (item.outOfScope === 'foreign-event') return !item.eventDeleted;
  if (!inScope(item) || item.eventDeleted) return false;
  return !(item.completed && model.onComplete === 'remove');
};

export type ExpectedEvent = {
  item: ModelItem;
  summary: string;
  hour: number;
  minutes: number;
  /** Checked only on events the sync made and styles (a task's, open). */
  linkDescription: boolean | null;
  /** Of a colour or category the sync does not take (and must leave as it is). */
  foreign: boolean;
};

export type ExpectedTask = {
  item: ModelItem;
  content: string;
  checked: boolean;
  /** null: a date without a time. */
  hour: number | null;
  labels: string[];
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
        (item.outOfScope === 'foreign-event' ? item.calendar === calendar : calendar === model.calendar),
    )
    .map((item) => ({
      item,
      summary: item.completed && model.onComplete === 'checkmark' ? `✓ ${item.title}` : item.title,
      hour: item.hour,
      minutes: item.length,
      linkDescription:
        item.outOfScope === null && item.origin === 'task' && !item.completed ? model.linkDescription : null,
      foreign: item.outOfScope === 'foreign-event',
    }));
}

export function expectedTasks(model: Model): ExpectedTask[] {
  return model.items.filter(taskExists).map((item) => ({
    item,
    content: item.title,
    checked: item.completed,
    hour: item.untimed ? null : item.hour,
    labels: item.outOfScope === null && item.timeboxed && !item.untimed ? [model.labels[item.length]] : [],
  }));
}

/** After a settle every item is known on both sides, and either side may change it again. */
export function settled(model: Model): void {
  model.touched.clear();
  model.calendarMoving = false;
  for (const item of model.items) {
    item.createdOn = null;
    item.relabelled = false;
  }
}
