import { CONNECT_PATHS, connectAnotherPath } from '#shared/api/auth.schema.ts';
import type { CalendarAccount, CalendarSettings } from '#shared/api/current-user.schema.ts';
import type { SyncProblemCode } from '#shared/api/sync.schema.ts';
import { PROVIDER_NAMES } from '#shared/sync/provider-names.ts';
import { paths, sectionIds } from '../../lib/paths.ts';

export type ProblemAdvice = {
  title: string;
  /** What happened and what to do about it. */
  message: string;
  /** Red: sync stops until the user acts; yellow: the sync goes on (by itself, or around what waits for the user). */
  severity: 'error' | 'warning';
  /** The way to fix it; none when there is nothing to do. `external` links leave the web app (connect flows). */
  action?: { label: string; href: string; external: boolean };
};

const CALENDAR_CONNECT: Record<NonNullable<CalendarSettings['provider']>, { name: string; href: string }> = {
  'Google Calendar': { name: 'Google Calendar', href: CONNECT_PATHS.google },
  Microsoft: { name: 'Microsoft 365', href: CONNECT_PATHS.microsoft },
};

/**
 * The added calendar accounts Plan my day cannot read, in words: one is named with its provider and
 * reconnected from here; several are listed, and reconnected each beside its name in the settings.
 */
function otherCalendarsAdvice(accounts: readonly CalendarAccount[]): ProblemAdvice {
  const blind = accounts.filter((account) => !account.sync && account.needsReconnect);
  const named = (account: CalendarAccount) =>
    account.email
      ? `${account.email} (${PROVIDER_NAMES[account.provider]})`
      : `your ${PROVIDER_NAMES[account.provider]} account`;
  const [first] = blind;
  if (first && blind.length === 1) {
    return {
      title: `Plan my day can’t see the meetings in ${first.email ?? `your ${PROVIDER_NAMES[first.provider]} account`}`,
      message: `${PROVIDER_NAMES[first.provider]} no longer accepts our access to ${first.email ?? 'this account'}, so Plan my day may place a task over one of its meetings. Your sync goes on. Connect the account again to have its meetings counted.`,
      severity: 'warning',
      action: { label: 'Connect it again', href: connectAnotherPath(first.provider), external: true },
    };
  }
  return {
    title:
      blind.length > 1
        ? `Plan my day can’t see the meetings of ${blind.length} calendar accounts`
        : 'Plan my day can’t see the meetings of a calendar account',
    message: `${blind.length > 1 ? `${blind.map(named).join(', ')} no longer accept` : 'An account you added no longer accepts'} our access, so Plan my day may place a task over one of their meetings. Your sync goes on. Connect each again in the Calendar Settings.`,
    severity: 'warning',
    action: { label: 'Go to Calendar Settings', href: `#${sectionIds.calendarSettings}`, external: true },
  };
}

/**
 * Each problem only the user can solve, in words, with what to do (the problem codes of the sync API);
 * `accounts`: the user's calendar accounts, to name the one a problem is about.
 */
export function problemAdvice(
  code: SyncProblemCode,
  calendarProvider: CalendarSettings['provider'],
  accounts: readonly CalendarAccount[] = [],
): ProblemAdvice {
  switch (code) {
    case 'reconnect-todoist':
      return {
        title: 'Todoist needs to be connected again',
        message:
          'Todoist no longer accepts our access, so nothing is synced. Connect Todoist again to resume.',
        severity: 'error',
        action: { label: 'Reconnect Todoist', href: CONNECT_PATHS.todoist, external: true },
      };
    case 'reconnect-calendar': {
      const calendar = calendarProvider ? CALENDAR_CONNECT[calendarProvider] : undefined;
      const name = calendar?.name ?? 'Your calendar';
      const address = accounts.find((account) => account.sync)?.email;
      return {
        title: `${name} needs to be connected again`,
        message: `${name} no longer accepts our access${address ? ` to ${address}` : ''}, so nothing is synced. Connect it again to resume.`,
        severity: 'error',
        action: calendar && { label: `Reconnect ${calendar.name}`, href: calendar.href, external: true },
      };
    }
    case 'calendar-missing':
      return {
        title: 'The chosen calendar is gone or read only',
        message:
          'It was deleted, or its owner no longer lets you change it (you can only read it now), so nothing is synced. Choose another calendar in the Calendar Settings, or ask the owner for access again.',
        severity: 'error',
        action: { label: 'Go to Calendar Settings', href: `#${sectionIds.calendarSettings}`, external: true },
      };
    case 'quota-reached':
      return {
        title: 'A provider asked us to slow down',
        message:
          'Todoist or your calendar limits how many changes we may make at a time. Sync resumes by itself shortly; there is nothing you need to do.',
        severity: 'warning',
      };
    case 'subscription-ended':
      return {
        title: 'Your subscription has ended',
        message: 'Sync is paused. Upgrade to resume it; your settings are kept.',
        severity: 'error',
        action: { label: 'Upgrade', href: paths.profile, external: false },
      };
    case 'sync-failing':
      return {
        title: 'Your sync keeps failing',
        message:
          'The last few attempts to sync failed with an error on our side. Nothing is lost and we keep trying; if this stays for more than an hour, please tell us.',
        severity: 'error',
        action: { label: 'Contact us', href: paths.contact, external: false },
      };
    case 'removals-held':
      return {
        title: 'Timeboxer held back many removals',
        message: 'Nothing was removed. Choose in the Sync activity whether to remove them or keep them.',
        severity: 'warning',
        action: { label: 'Go to Sync activity', href: `#${sectionIds.syncActivity}`, external: true },
      };
    case 'reconnect-other-calendar':
      return otherCalendarsAdvice(accounts);
  }
}
