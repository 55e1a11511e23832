/**
 * The account's main calendar (Google's primary, Microsoft's default): where the user's own meetings
 * are. Pure, for the server and the web app alike.
 */

/** A listed calendar; `primary` as the provider said it (absent in a list stored before it was kept). */
export type ListedCalendar = { id: string; primary?: boolean | undefined };

/**
 * The id of the account's main calendar among those listed: the one the provider marks (Google
 * calendarList `primary`, Graph `isDefaultCalendar`). A list stored before the mark was kept falls back
 * to what was known then: on Google the calendar whose id is the account's (or `primary`), on Microsoft
 * the first listed. Null when none is known.
 */
export function mainCalendarId(
  provider: 'google' | 'microsoft',
  calendars: readonly ListedCalendar[],
  accountId: string | null,
): string | null {
  if (calendars.some((entry) => entry.primary !== undefined)) {
    return calendars.find((entry) => entry.primary)?.id ?? null;
  }
  if (provider === 'microsoft') return calendars[0]?.id ?? null;
  return calendars.find((entry) => entry.id === accountId || entry.id === 'primary')?.id ?? null;
}
