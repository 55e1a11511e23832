import type { Logger } from 'pino';
import { ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
import type { CalendarTarget } from '../calendar-target.port.ts';
import type { OtherAccountsReader } from '../store/other-accounts.reader.ts';
import type { WithAccountToken } from '../with-token.ts';

export type OtherAccountsBusyDeps = {
  otherAccounts: OtherAccountsReader;
  /** Tokens of an added account, its calls counted against its provider's budgets (run-budget.ts). */
  withAccountToken: (provider: 'google' | 'microsoft') => WithAccountToken;
  calendars: Record<'google' | 'microsoft', CalendarTarget | null>;
  log: Logger;
};

/**
 * The busy times of the user's calendar accounts added beside the sync's (docs/product-rules.md §10
 * "Plan my day"), between `from` and `to`: every calendar of each, with its own provider's free/busy
 * (Google: one call for them all; Microsoft: a calendar view per calendar). An account whose provider
 * no longer accepts its token is left out (the token manager marks it: the dashboard asks to connect it
 * again) and the others count; the sync goes on. Any other failure fails the run as a read does, so no
 * block is placed over a meeting that could not be read.
 */
export async function busyInOtherAccounts(
  deps: OtherAccountsBusyDeps,
  userId: string,
  from: Date,
  to: Date,
): Promise<{ start: Date; end: Date }[]> {
  const accounts = await deps.otherAccounts.list(userId);
  const busy: { start: Date; end: Date }[] = [];
  for (const account of accounts) {
    const calendar = deps.calendars[account.provider];
    if (account.needsReconnect || !calendar || account.calendarIds.length === 0) continue;
    try {
      busy.push(
        ...(await deps.withAccountToken(account.provider)(userId, account.id, (token) =>
          calendar.busyElsewhere(token, account.calendarIds, from, to),
        )),
      );
    } catch (error) {
      if (!(error instanceof ReconnectRequiredError)) throw error;
      deps.log.warn(
        { userId, accountId: account.id, provider: account.provider },
        'an added calendar account must be connected again; its busy times are left out',
      );
    }
  }
  return busy;
}
