import fc from 'fast-check';
import { chosenReadOnly, eventProject, type Style } from './sync-model.ts';
import {
  Action,
  hour,
  idOf,
  length,
  onItem,
  ourOpenEvent,
  pick,
  startOn,
  timeboxLength,
} from './sync-model-actions.ts';
import { userTimed } from './sync-model-autoplan.ts';
import { addItem, newTitle } from './sync-model-items.ts';

/** What the user does in their own calendar: events added, moved, resized, retitled, deleted. */

export const addEvent = fc
  .record({ at: hour, length, foreign: fc.boolean() })
  .map(({ at, length: minutes, foreign }) => {
    return new Action(
      `addEvent(${at}:00, ${minutes} min${foreign ? ', foreign colour or category' : ''})`,
      // The sync takes it with the length of a timebox setting (else the task gets the nearest one), or
      // as the duration field while task durations are on; not while a run may still judge it by the
      // filter, mode or projects before a change. While no project syncs no event becomes a task
      // (docs/product-rules.md §10 "Projects"), and which ones do once a project syncs again is left open.
      (model) =>
        !chosenReadOnly(model) &&
        !model.filterChanged &&
        !model.durationsChanged &&
        !model.projectsChanged &&
        (foreign || ((model.durations || timeboxLength(model, minutes)) && eventProject(model) !== null)),
      async (model, real) => {
        const title = newTitle(model);
        const style: Style = foreign ? (model.filter === 0 ? 1 : 0) : model.filter;
        const id = await real.user.calendar.add(title, startOn(real, at), minutes, style);
        const item = addItem(model, 'calendar', {
          outOfScope: foreign ? 'foreign-event' : null,
          title,
          hour: at,
          length: minutes,
          timeboxed: !model.durations,
          durationField: model.durations,
          style,
          // Its task goes to the first project that syncs (a foreign event's: where it would, if adopted).
          project: eventProject(model) ?? 'inbox',
        });
        real.eventIds.set(item.id, id);
      },
    );
  });

export const moveEvent = fc.tuple(pick, hour).map(([n, at]) =>
  onItem(`moveEvent(${at}:00)`, n, 'calendar', ourOpenEvent, async (_model, real, item) => {
    await real.user.calendar.move(idOf(real.eventIds, item), startOn(real, at), item.length);
    item.hour = at;
    // An all-day event moved to a time gives its task that time.
    item.dated = false;
    userTimed(item);
  }),
);

/**
 * Makes the event an all-day one on its day, while dated tasks are all-day events: its task keeps its
 * label and date and loses its time (otherwise the event no longer counts as a timebox; see
 * `deleteEvent`, which the model already covers for that case).
 */
export const makeEventAllDay = pick.map((n) =>
  onItem(
    'makeEventAllDay',
    n,
    'calendar',
    (model, item) => model.datedAllDay && !model.datedChanged && ourOpenEvent(model, item) && !item.dated,
    async (_model, real, item) => {
      await real.user.calendar.makeAllDay(idOf(real.eventIds, item), real.day);
      item.dated = true;
      userTimed(item);
    },
  ),
);

export const resizeEvent = fc.tuple(pick, length).map(([n, minutes]) =>
  onItem(
    `resizeEvent(${minutes} min)`,
    n,
    'calendar',
    (model, item) => ourOpenEvent(model, item) && (model.durations || timeboxLength(model, minutes)),
    async (_model, real, item) => {
      await real.user.calendar.move(idOf(real.eventIds, item), startOn(real, item.hour), minutes);
      // Saved at the time and length it had: no change of either, for the sync to see or take (a block
      // Plan my day placed stays the app's; seed -1303208527).
      if (minutes === item.length && !item.dated) return;
      item.length = minutes;
      item.dated = false;
      userTimed(item);
    },
  ),
);

export const retitleEvent = pick.map((n) =>
  onItem('retitleEvent', n, 'calendar', ourOpenEvent, async (model, real, item) => {
    item.title = newTitle(model);
    await real.user.calendar.retitle(idOf(real.eventIds, item), item.title);
  }),
);

export const deleteEvent = pick.map((n) =>
  onItem('deleteEvent', n, 'calendar', ourOpenEvent, async (_model, real, item) => {
    await real.user.calendar.delete(idOf(real.eventIds, item));
    item.eventDeleted = true;
    userTimed(item);
    // The task the event made goes with it; a task that existed first keeps its date, not its time.
    if (item.origin === 'event') item.taskDeleted = true;
    else item.untimed = true;
  }),
);

/**
 * The user moves the event into another calendar of the account, one the sync never reads
 * (docs/product-rules.md §10 "Moved to another calendar"): for the sync its event is gone, as if
 * deleted; it stays where it was moved, as it was.
 */
export const moveEventAway = pick.map((n) =>
  onItem('moveEventAway', n, 'calendar', ourOpenEvent, async (_model, real, item) => {
    await real.user.calendar.moveAway(idOf(real.eventIds, item), false);
    item.movedAway = item.title;
    item.eventDeleted = true;
    userTimed(item);
    if (item.origin === 'event') item.taskDeleted = true;
    else item.untimed = true;
  }),
);
