import fc from 'fast-check';
import { chosenReadOnly, type Model, taskExists } from './sync-model.ts';
import { Action, type Real } from './sync-model-actions.ts';

/**
 * The owner of the chosen calendar shares it read only now, and later perhaps gives write access back
 * (docs/product-rules.md §10 "Changes around the sync", docs/provider-facts.md §9). While it is chosen
 * the sync stops with the "calendar missing" problem and writes nothing (a settle checks that and
 * compares nothing); access given back, it catches up with everything done meanwhile. Another calendar
 * chosen instead (`switchCalendar`): the events there stay there, and each task gets its event in the
 * chosen one, once (`leaveReadOnlyCalendar`).
 */

export const loseWriteAccess = fc.constant(
  new Action(
    'loseWriteAccess',
    // Once a sequence; not with Plan my day on, whose placements a stopped run may have half written.
    (model) => model.syncOn && model.calendarConnected && model.readOnly === null && !model.autoplan,
    async (model, real) => {
      // Caught up first, so that what stays in the calendar once it can only be read is known.
      await real.settle(model);
      const { calendar } = real.user;
      real.frozen = { calendarId: calendar.chosen, events: await calendar.list() };
      await calendar.setWriteAccess(calendar.chosen, false);
      model.readOnly = { account: model.account, calendar: model.calendar };
    },
  ),
);

export async function regainWriteAccess(model: Model, real: Real): Promise<void> {
  await real.user.calendar.setWriteAccess(real.user.calendar.chosen, true);
  model.readOnly = null;
  real.frozen = null;
}

/** Write access given back while the calendar is still the chosen one. */
export const giveWriteAccessBack = fc.constant(
  new Action('giveWriteAccessBack', chosenReadOnly, regainWriteAccess),
);

/**
 * Another calendar chosen while the chosen one can only be read: the pairs whose event is there are
 * unlinked (their events stay there, ours and the user's), so every open task in scope among them gets
 * a new event from the task, a done one none.
 */
export function leaveReadOnlyCalendar(model: Model, real: Real): void {
  const stuck = new Set(real.frozen?.events.map((event) => event.id));
  for (const item of model.items) {
    const eventId = real.eventIds.get(item.id);
    if (item.outOfScope !== null || eventId === undefined || !stuck.has(eventId)) continue;
    item.origin = 'task';
    if (item.completed) item.eventLeftBehind = true;
    else if (taskExists(item)) item.createdOn = 'todoist';
  }
}
