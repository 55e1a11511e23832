import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { describeUnplacedDay } from '#shared/settings/autoplan-text.ts';

/**
 * "Plan my day" found no free time for some tasks: one line per day, earliest first, such as
 * "Plan my day: 2 tasks (1 h 30) did not fit on Thursday." `today` is the user's (their Todoist zone),
 * for naming the days of the coming week.
 */
export function autoplanUnplacedLines(days: SyncActivity['autoplanUnplaced'], today: string): string[] {
  return [...days]
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map((day) => `Plan my day: ${describeUnplacedDay(day, today)}.`);
}
