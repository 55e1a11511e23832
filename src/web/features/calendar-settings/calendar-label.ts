import type { CalendarSettings } from '#shared/api/current-user.schema.ts';

type Listed = CalendarSettings['calendars'][number];

/** How the calendar select names a calendar: "Work (main)" for the account's main one. */
export function calendarLabel(entry: Pick<Listed, 'name' | 'primary'>): string {
  return entry.primary ? `${entry.name} (main)` : entry.name;
}

/** The calendar select's options, in the provider's order. */
export const calendarOptions = (calendars: readonly Listed[]) =>
  calendars.map((entry) => ({ value: entry.id, label: calendarLabel(entry) }));
