import type { CalendarAccount } from '#shared/api/current-user.schema.ts';
import { PROVIDER_NAMES } from '#shared/sync/provider-names.ts';

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

/**
 * What making an added account the sync's does, said before the user confirms (docs/product-rules.md
 * §10 "Several calendar accounts"): both stay connected, the sync waits for one of the new account's
 * calendars, and, while it was on, what is already synced stays where it is.
 */
export function syncSwitchConsequence(
  account: CalendarAccount,
  accounts: readonly CalendarAccount[],
  syncActive: boolean,
): string[] {
  const name = accountName(account);
  const current = accounts.find((other) => other.sync);
  const lines = [`Timeboxer will sync with ${name}. Choose one of its calendars, then switch sync on again.`];
  if (current) {
    const old = accountName(current);
    lines.push(
      syncActive
        ? `Sync switches off until then. The events already synced stay in ${old}, not synced meanwhile; your timeboxed tasks get new events in the calendar you choose. Sync with ${old} again later and they are synced again, none made twice.`
        : `The events already synced stay in ${old}, not synced meanwhile. Sync with ${old} again later and they are synced again, none made twice.`,
      `${old} stays connected: Plan my day counts its meetings as busy.`,
    );
  }
  return lines;
}
