import { describeUnplacedDay as describeDay } from '#shared/settings/autoplan-text.ts';
import type { UnplacedTask } from './slot-planner.ts';

/** The tasks of one date that did not fit, for a line such as "3 tasks (2 h 30) did not fit on …". */
export type UnplacedDay = { date: string; taskIds: string[]; minutes: number };

/** Unplaced tasks grouped by date, earliest date first; task ids keep their planning order. */
export function unplacedByDay(
  unplaced: readonly Pick<UnplacedTask, 'taskId' | 'date' | 'minutes'>[],
): UnplacedDay[] {
  const days = new Map<string, UnplacedDay>();
  for (const task of unplaced) {
    const day = days.get(task.date) ?? { date: task.date, taskIds: [], minutes: 0 };
    day.taskIds.push(task.taskId);
    day.minutes += task.minutes;
    days.set(task.date, day);
  }
  return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/**
 * "3 tasks (2 h 30) did not fit on Thursday": the day named as of `today` (the user's), in the words the
 * web app uses too (`src/shared/settings/autoplan-text.ts`).
 */
export function describeUnplacedDay(day: UnplacedDay, today: string): string {
  return describeDay({ date: day.date, tasks: day.taskIds.length, minutes: day.minutes }, today);
}
