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

export const LABEL_OF: Record<Length, string> = { 30: '30min', 60: '1h' };

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
  };
}

export function newTitle(model: Model): string {
  const title = `${model.prefix} ${model.nextTitle}`;
  model.nextTitle += 1;
  return title;
}

/** Whether `side` may change the item now: it is known there, and the other side has not changed it. */
export function actionable(model: Model, item: ModelItem, side: Side): boolean {
  const touchedBy = model.touched.get(item.id);
  if (touchedBy !== undefined && touchedBy !== side) return false;
  return item.createdOn === null || item.createdOn === side;
}

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

export function expectedEvents(model: Model): ExpectedEvent[] {
  return model.items
    .filter((item) => eventExpected(model, item))
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
    labels: item.outOfScope === null && item.timeboxed && !item.untimed ? [LABEL_OF[item.length]] : [],
  }));
}

/** After a settle every item is known on both sides, and either side may change it again. */
export function settled(model: Model): void {
  model.touched.clear();
  for (const item of model.items) {
    item.createdOn = null;
    item.relabelled = false;
  }
}
