import type { CalendarSettings } from '#shared/api/current-user.schema.ts';

type Listed = CalendarSettings['calendars'][number];

/**
 * How the calendar select names a calendar: "Work (main)" for the account's main one, "Team (read
 * only)" for one shared with the account to read only.
 */
export function calendarLabel(
  entry: Pick<Listed, 'name' | 'primary'> & Partial<Pick<Listed, 'readOnly'>>,
): string {
  if (entry.readOnly) return `${entry.name} (read only)`;
  return entry.primary ? `${entry.name} (main)` : entry.name;
}

/**
 * The calendar select's options, in the provider's order; one the account can only read is listed
 * but cannot be chosen (Timeboxer could not add its events there).
 */
export const calendarOptions = (calendars: readonly Listed[]) =>
  calendars.map((entry) => ({
    value: entry.id,
    label: calendarLabel(entry),
    ...(entry.readOnly ? { disabled: true } : {}),
  }));

/** What the calendar select says of itself; why some calendars cannot be chosen, when some cannot. */
export function calendarDescription(calendars: readonly Listed[]): string {
  const base = 'Timeboxer creates its events here and turns new events here into tasks.';
  return calendars.some((entry) => entry.readOnly)
    ? `${base} Calendars you can only read cannot hold Timeboxer’s events; their meetings still count for Plan my day.`
    : base;
}
