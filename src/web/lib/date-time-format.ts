import type { ItemWhen } from '#shared/api/activity-names.schema.ts';

/**
 * Dates and times of tasks and events, in the browser's locale (Intl): "Thu, Dec 3, 10:00 AM" or
 * "Do., 3. Dez., 10:00". A floating Todoist time is its wall time, the same in every zone, and says so.
 */
const dayAndTime = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const dayOnly = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric' });

/** `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` as the same wall time in this browser's zone. */
function wallTime(local: string): Date {
  const [date = '', time = '00:00'] = local.split('T');
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return new Date(year, month - 1, day, hour, minute);
}

/** When a task or event is, as the activity and the safety brake show it. */
export function formatWhen(when: ItemWhen): string {
  switch (when.kind) {
    case 'instant':
      return dayAndTime.format(new Date(when.start));
    case 'floating':
      return `${dayAndTime.format(wallTime(when.local))}, floating`;
    case 'date':
      return dayOnly.format(wallTime(when.date));
  }
}
