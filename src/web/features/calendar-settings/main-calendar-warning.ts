import type { CalendarSettings } from '#shared/api/current-user.schema.ts';

export type CalendarChange =
  | { kind: 'color'; color: string }
  | { kind: 'category'; category: string | null }
  | { kind: 'calendar'; calendarId: string };

/** Whether the events would carry no separate mark: the default colour (Google) or no category (Microsoft). */
export function unmarked(
  provider: CalendarSettings['provider'],
  settings: Pick<CalendarSettings, 'color' | 'category'>,
) {
  if (provider === 'Google Calendar') return settings.color === '';
  if (provider === 'Microsoft') return !settings.category;
  return false;
}

/**
 * Per docs/product-rules.md §4: warn when the default colour or no category is chosen, or when the calendar
 * changes while that is still the choice — in a main calendar, every previous event could become a task.
 */
export function needsMainCalendarWarning(settings: CalendarSettings, change: CalendarChange): boolean {
  switch (change.kind) {
    case 'color':
      return settings.provider === 'Google Calendar' && change.color === '';
    case 'category':
      return settings.provider === 'Microsoft' && !change.category;
    case 'calendar':
      return change.calendarId !== settings.calendarId && unmarked(settings.provider, settings);
  }
}

/** The calendar a warning is about: the one chosen by the change, or the one synced with. */
export function warnedCalendar(settings: CalendarSettings, change: CalendarChange) {
  const id = change.kind === 'calendar' ? change.calendarId : settings.calendarId;
  return settings.calendars.find((entry) => entry.id === id) ?? null;
}

/** What the warning says of that calendar: whether it is the main one, when the calendar is known. */
export function mainCalendarSentence(calendar: { name: string; primary: boolean } | null): string {
  if (!calendar)
    return 'If this is your main calendar, all your previous events may be turned into Todoist tasks.';
  return calendar.primary
    ? `${calendar.name} is your main calendar: all your previous events may be turned into Todoist tasks.`
    : `${calendar.name} is not your main calendar, but the events already in it may be turned into Todoist tasks.`;
}
