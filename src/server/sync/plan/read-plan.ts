import type { SyncState } from '../sync-state.ts';

/**
 * Which sides a run reads. A queue run reads the sides whose notifications asked for it (a Todoist
 * webhook: Todoist; a calendar push: the calendar; the reconcile, a setting or the switch: both), so a
 * change costs one read of the side it happened on. Both are read when a side has no read position
 * yet, another calendar was chosen, removals are held, the settings of what is in scope changed or a create
 * is unfinished; Todoist also when every task must be
 * read (new settings) or a recurring occurrence's completion waits. A direct run reads both.
 */
export function readPlan(input: {
  state: SyncState | null;
  sameCalendar: boolean;
  /** Both sides are read in full: removals are held (until the user chooses), or the scope changed. */
  readAll: boolean;
  needsAllTasks: boolean;
  unfinishedCreates: boolean;
  completedOccurrences: boolean;
  requestedSidesOnly: boolean;
}): { todoist: boolean; calendar: boolean } {
  const { state } = input;
  if (
    !input.requestedSidesOnly ||
    !state?.todoistToken ||
    !state.calendarToken ||
    !input.sameCalendar ||
    input.readAll ||
    input.unfinishedCreates
  ) {
    return { todoist: true, calendar: true };
  }
  return {
    todoist: state.todoistReadsPending > 0 || input.needsAllTasks || input.completedOccurrences,
    calendar: state.calendarReadsPending > 0,
  };
}
