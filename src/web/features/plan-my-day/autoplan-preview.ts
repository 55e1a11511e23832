import type { AutoplanPreview } from '#shared/api/sync.schema.ts';
import { describeUnplacedDay, localDateIn, shortDate, weekdayName } from '#shared/settings/autoplan-text.ts';
import { formatInstant } from '../../lib/date-time-format.ts';

/**
 * The switch-on preview of "Plan my day", per day: where each task would go ("10:00–10:30 Report") and
 * what would not fit, in the zone of the user's screens (lib/time-zone.ts: Todoist's, where it plans).
 */

export type PreviewDay = {
  date: string;
  /** "Thursday 3 Dec". */
  heading: string;
  placements: { taskId: string; time: string; title: string }[];
  /** "2 tasks (1 h 30) did not fit on Thursday", with the tasks' titles; null when all fitted. */
  unplaced: { text: string; tasks: { taskId: string; title: string }[] } | null;
};

/** "10:00–10:30" (or "10:00 AM–10:30 AM"): the app's one formatter, in the zone; `locale` for tests. */
export const timeRange = (start: string, end: string, timeZone: string, locale?: string): string =>
  `${formatInstant(start, timeZone, 'time', locale)}–${formatInstant(end, timeZone, 'time', locale)}`;

const titleOf = (title: string) => title.trim() || '(no title)';

/** "Thursday 3 Dec". */
export function dayHeading(date: string): string {
  const short = shortDate(date);
  return short === date ? date : `${weekdayName(date)} ${short.slice(4)}`;
}

/**
 * The preview by day, earliest first: each day's placements by start time, then what did not fit on
 * it. `today` is the user's, for naming the days of the coming week.
 */
export function previewDays(
  preview: AutoplanPreview,
  timeZone: string,
  today: string,
  locale?: string,
): PreviewDay[] {
  const days = new Map<string, PreviewDay>();
  const dayOf = (date: string): PreviewDay => {
    const found = days.get(date);
    if (found) return found;
    const made: PreviewDay = { date, heading: dayHeading(date), placements: [], unplaced: null };
    days.set(date, made);
    return made;
  };
  const byStart = [...preview.placements].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  for (const placement of byStart) {
    dayOf(localDateIn(timeZone, new Date(placement.start))).placements.push({
      taskId: placement.taskId,
      time: timeRange(placement.start, placement.end, timeZone, locale),
      title: titleOf(placement.title),
    });
  }
  for (const day of preview.unplaced) {
    const summary = { date: day.date, tasks: day.tasks.length, minutes: day.minutes };
    dayOf(day.date).unplaced = {
      text: describeUnplacedDay(summary, today),
      tasks: day.tasks.map((task) => ({ taskId: task.taskId, title: titleOf(task.title) })),
    };
  }
  return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
