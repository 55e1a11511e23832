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
