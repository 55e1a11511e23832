/**
 * Whether "Plan my day" counts the events of the account's other calendars as busy
 * (docs/product-rules.md §10). The setting is the user's choice, or null while they have not made one:
 * then it is on when the sync writes to a calendar other than the account's main one (the welcome
 * wizard's advice), as the user's meetings are in the main one, and off when it writes to the main one.
 */
export function otherCalendarsCount(setting: boolean | null, mainCalendarChosen: boolean): boolean {
  return setting ?? !mainCalendarChosen;
}

/** Whether the rule, not the user, decides it: no choice made, and a calendar other than the main one. */
export function otherCalendarsBusyByDefault(setting: boolean | null, mainCalendarChosen: boolean): boolean {
  return setting === null && !mainCalendarChosen;
}
