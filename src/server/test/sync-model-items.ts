import { type Model, type ModelItem, type Side, touch } from './sync-model.ts';

/** Items the user makes in the model (sync-model.ts): their titles, and the item recorded as made. */

export function newTitle(model: Model): string {
  const title = `${model.prefix} ${model.nextTitle}`;
  model.nextTitle += 1;
  return title;
}

/**
 * Records an item the user just made on `side` (a task in Todoist, an event in the calendar): open, in
 * the calendar and account chosen now, and changed by that side since the last settle.
 */
export function addItem(
  model: Model,
  side: Side,
  fields: Pick<
    ModelItem,
    'outOfScope' | 'title' | 'hour' | 'length' | 'timeboxed' | 'durationField' | 'style' | 'project'
  > & { dated?: boolean },
): ModelItem {
  const item: ModelItem = {
    id: model.items.length,
    origin: side === 'todoist' ? 'task' : 'event',
    ...fields,
    completed: false,
    taskDeleted: false,
    eventDeleted: false,
    untimed: false,
    dated: fields.dated ?? false,
    placement: null,
    createdOn: side,
    relabelled: false,
    calendar: model.calendar,
    account: model.account,
    eventLeftBehind: false,
    movedAway: null,
  };
  model.items.push(item);
  touch(model, item, side);
  return item;
}
