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

/** `45 min`, `2 h`, `2 h 05`. */
export function formatDuration(minutes: number): string {
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${String(rest).padStart(2, '0')}`;
}

/** "3 tasks (2 h 30) did not fit on 2030-05-01"; the caller may format the date for the reader. */
export function describeUnplacedDay(day: UnplacedDay, date: string = day.date): string {
  const count = day.taskIds.length;
  return `${count} ${count === 1 ? 'task' : 'tasks'} (${formatDuration(day.minutes)}) did not fit on ${date}`;
}
