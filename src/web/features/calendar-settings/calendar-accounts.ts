import type { CalendarAccount } from '#shared/api/current-user.schema.ts';

const PROVIDER_NAMES = { google: 'Google Calendar', microsoft: 'Microsoft 365' } as const;

/** How an account is named to the user: its address, else its provider's name. */
export function accountName(account: Pick<CalendarAccount, 'email' | 'provider'>): string {
  return account.email ?? `your ${PROVIDER_NAMES[account.provider]} account`;
}

export const providerName = (provider: CalendarAccount['provider']) => PROVIDER_NAMES[provider];

/** The account's calendars in one line: "Work (main), Team (read only)". */
export function calendarList(account: Pick<CalendarAccount, 'calendars'>): string {
  if (account.calendars.length === 0) return 'No calendars read yet';
  return account.calendars
    .map((entry) => `${entry.name}${entry.primary ? ' (main)' : ''}${entry.canWrite ? '' : ' (read only)'}`)
    .join(', ');
}

/**
 * What removing an account does, said before the user confirms (docs/product-rules.md §10 "Several
 * calendar accounts"): an added one goes alone; the sync's stops the sync, and the next account takes
 * its place until the user chooses one of its calendars.
 */
export function removalConsequence(account: CalendarAccount, accounts: readonly CalendarAccount[]): string {
  if (!account.sync) {
    return 'Timeboxer stops reading its calendars for Plan my day. Your sync and its events stay as they are.';
  }
  const next = accounts.find((other) => !other.sync);
  const stops = 'This is the account Timeboxer syncs with. All your synchronisations will stop working.';
  return next
    ? `${stops} ${accountName(next)} takes its place: choose one of its calendars to sync again.`
    : stops;
}
