import type { StoredCalendar } from '#server/db/schema/settings.tables.ts';
import { sortLabels } from '#shared/settings/rules.ts';
import type { SettingsRepository } from '../settings/settings.repository.ts';
import type { Clock } from '../shared/clock.port.ts';
import { NotConfiguredError, NotFoundError, StateConflictError } from '../shared/domain-errors.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { startConnectFlow } from './connect-flow.ts';
import type { IntegrationRepository } from './integration.repository.ts';
import {
  type CalendarGateway,
  type ConnectFlow,
  failingAs,
  type IntegrationKind,
  type IntegrationProvider,
  KIND_OF,
  type OAuthConnector,
  type TodoistGateway,
} from './integration-providers.port.ts';
import { todoistAccountType } from './todoist-account-type.ts';
import { NotConnectedError, ReconnectRequiredError, type TokenManager } from './token-manager.ts';

/** The subset of a pino logger the service writes to. */
export type IntegrationLog = {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
};

export type IntegrationGateways = {
  todoist: TodoistGateway | null;
  google: CalendarGateway | null;
  microsoft: CalendarGateway | null;
};

type Deps = {
  tokens: TokenManager;
  /** Where what the providers tell us about the accounts is kept. */
  settings: Pick<
    SettingsRepository,
    'saveTodoistAccount' | 'saveCalendarAccount' | 'forgetCalendarChoice' | 'readiness'
  >;
  users: Pick<UserRepository, 'updatePreferences'>;
  /** The calendar accounts' own rows: their addresses and (added accounts) calendar lists. */
  accounts: Pick<IntegrationRepository, 'calendarAccounts' | 'saveProfile' | 'makeSyncAccount'>;
  gateways: IntegrationGateways;
  /**
   * Stops the sync's push channels while its account's grant still works, called once sync is off
   * (so no run opens another meanwhile) and before the sync's account changes or goes.
   */
  stopChannels?: (userId: string) => Promise<void>;
  clock: Clock;
  log: IntegrationLog;
};

export type IntegrationService = ReturnType<typeof createIntegrationService>;

/** Connecting, refreshing and removing the user's Todoist and calendar accounts. */
export function createIntegrationService(deps: Deps) {
  const { tokens, settings, users, accounts, gateways, clock, log } = deps;

  const connector = (provider: IntegrationProvider): OAuthConnector => {
    const gateway = gateways[provider];
    if (!gateway) throw new NotConfiguredError(provider);
    return gateway;
  };
  const calendarGateway = (provider: IntegrationProvider): CalendarGateway | null =>
    provider === 'google' || provider === 'microsoft' ? gateways[provider] : null;

  async function readTodoistAccount(gateway: TodoistGateway, token: string) {
    const [profile, labels, projects] = await Promise.all([
      gateway.profile(token),
      gateway.labels(token),
      gateway.projects(token),
    ]);
    return {
      accountType: todoistAccountType(profile.premiumStatus),
      todoistUserId: profile.userId,
      timezone: profile.timezone,
      labels: sortLabels(labels),
      projects,
    };
  }

  /** Best effort: a provider that cannot be reached must not keep the user's tokens with us. */
  async function revokeAtProvider(
    userId: string,
    which: { kind: IntegrationKind } | { accountId: string },
  ): Promise<void> {
    let stored: Awaited<ReturnType<TokenManager['tokens']>>;
    try {
      stored =
        'kind' in which
          ? await tokens.tokens(userId, which.kind)
          : await tokens.accountTokens(userId, which.accountId);
    } catch (error) {
      log.warn({ err: error, userId, ...which }, 'stored tokens unreadable; deleting them without revoking');
      return;
    }
    if (!stored) return;
    try {
      await connector(stored.provider).revoke(stored);
      log.info({ userId, provider: stored.provider }, 'grant revoked at the provider');
    } catch (error) {
      log.warn(
        { err: error, userId, provider: stored.provider },
        'revoking at the provider failed; deleting the tokens anyway',
      );
    }
  }

  /**
   * The sync's calendar account was removed and an added one took its place (docs/product-rules.md
   * §10 "Several calendar accounts"): the calendar choice, colour and category meant the old one; the
   * new one's calendars are listed, for the user to choose from.
   */
  async function promoted(
    userId: string,
    row: { id: string; provider: IntegrationProvider; calendars: StoredCalendar[] | null } | undefined,
  ) {
    if (!row) return;
    const now = clock();
    await settings.forgetCalendarChoice(userId, now);
    await settings.saveCalendarAccount(userId, { calendars: row.calendars ?? [], categories: [] }, now);
    log.info({ userId, accountId: row.id }, 'an added calendar account became the sync’s');
    // Its categories (Microsoft) were never kept for an added account: read now, with its calendars as
    // they are, so the card offers them at once. Best effort: the dashboard's next refresh reads them too.
    const gateway = calendarGateway(row.provider);
    if (!gateway) return;
    try {
      await whileConnected(async () => {
        const profile = await tokens.withAccessToken(userId, 'calendar', (token) => gateway.profile(token));
        await settings.saveCalendarAccount(
          userId,
          { calendars: profile.calendars, categories: profile.categories },
          clock(),
        );
      });
    } catch (error) {
      log.warn(
        { err: error, userId, accountId: row.id },
        'the new sync account’s calendars were not re-read',
      );
    }
  }

  /** Removes the sync's connection of this kind: revoked, deleted, sync off (an added account may take its place). */
  async function remove(userId: string, kind: IntegrationKind): Promise<void> {
    // Sync off first: a run starting while the accounts change would read the promoted account with
    // the old one's calendar, or open a channel again after it was stopped.
    await users.updatePreferences(userId, { syncActive: false }, clock());
    if (kind === 'calendar') await deps.stopChannels?.(userId);
    await revokeAtProvider(userId, { kind });
    const next = await tokens.remove(userId, kind);
    if (kind === 'calendar') await promoted(userId, next);
  }

  /** Reads one calendar account's profile and keeps what it lists. */
  async function refreshAccount(userId: string, account: { id: string; provider: IntegrationProvider }) {
    const gateway = calendarGateway(account.provider);
    if (!gateway) return;
    const profile = await tokens.withAccountToken(userId, account.id, (token) => gateway.profile(token));
    await accounts.saveProfile(account.id, { email: profile.email, calendars: profile.calendars }, clock());
  }

  /** Runs a provider read, treating "not connected" and "must reconnect" as nothing to refresh. */
  async function whileConnected(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (error instanceof NotConnectedError || error instanceof ReconnectRequiredError) return;
      throw error;
    }
  }

  return {
    /**
     * `loginHint`: the signed-in user's e-mail, offered first on the provider's account page, unless the
     * user adds `anotherAccount` (then the provider asks which one).
     */
    async startConnect(
      userId: string,
      provider: IntegrationProvider,
      redirectUri: string,
      loginHint?: string,
      anotherAccount = false,
    ) {
      const flow = startConnectFlow(provider, userId, loginHint, anotherAccount);
      return { flow, url: await connector(provider).authorizationUrl(flow, redirectUri) };
    },

    /** Exchanges the callback's code, reads the account, and stores both. */
    async completeConnect(flow: ConnectFlow, callbackUrl: URL, redirectUri: string): Promise<void> {
      const { userId, provider } = flow;
      const kind = KIND_OF[provider];
      const received = await connector(provider).exchange(callbackUrl, flow, redirectUri);
      if (provider === 'todoist') {
        const gateway = gateways.todoist;
        if (!gateway) throw new NotConfiguredError('todoist');
        const account = await readTodoistAccount(gateway, received.accessToken);
        await tokens.store({ userId, provider, kind, accountId: account.todoistUserId }, received);
        await settings.saveTodoistAccount(userId, account, clock());
        return;
      }
      const gateway = calendarGateway(provider);
      if (!gateway) throw new NotConfiguredError(provider);
      const profile = await gateway.profile(received.accessToken);
      // Several calendar accounts (decision 028): the same account connected again gets its new tokens;
      // another one is added beside the sync's, which stays the sync's. Reconnecting never revokes: at
      // Google, revoking the old token would end the new grant too.
      const { row, added } = await tokens.store(
        { userId, provider, kind, accountId: profile.accountId, email: profile.email },
        received,
      );
      if (added) {
        await accounts.saveProfile(row.id, { email: profile.email, calendars: profile.calendars }, clock());
        log.info({ userId, provider, accountId: row.id }, 'calendar account added');
        return;
      }
      await settings.saveCalendarAccount(
        userId,
        { calendars: profile.calendars, categories: profile.categories },
        clock(),
      );
    },

    /** Revokes the grant (best effort), deletes the tokens, keeps the settings, and stops sync. */
    async disconnect(userId: string, provider: IntegrationProvider): Promise<void> {
      const kind = KIND_OF[provider];
      const current = await tokens.connection(userId, kind);
      if (current?.provider !== provider) return;
      await remove(userId, kind);
      log.info({ userId, provider }, 'integration removed');
    },

    /**
     * Removes one calendar account by its id. An added one goes alone: the sync and its pairs stay as
     * they are. The sync's own goes as `disconnect` removes it (sync off), and the first added account
     * becomes the sync's, without a calendar chosen (docs/product-rules.md §10).
     */
    async removeAccount(userId: string, accountId: string): Promise<void> {
      const listed = await accounts.calendarAccounts(userId);
      const account = listed.find((row) => row.id === accountId);
      if (!account) throw new NotFoundError('No such calendar account');
      if (account.position === 0) {
        await remove(userId, 'calendar');
        log.info({ userId, provider: account.provider }, 'integration removed');
        return;
      }
      await revokeAtProvider(userId, { accountId });
      await tokens.removeAccount(userId, accountId);
      log.info({ userId, provider: account.provider, accountId }, 'calendar account removed');
    },

    /**
     * Makes an added calendar account the sync's, without removing one (docs/product-rules.md §10
     * "Several calendar accounts"): the sync's account becomes an added one in its place, both stay
     * connected. As when the sync's account is removed, the sync switches off and the new account's
     * calendars are listed with none chosen (colour and category forgotten); the first run after the
     * user chose one and switched sync on leaves the pairs in the old account behind. Nothing to do
     * when it is the sync's already.
     */
    async syncWithAccount(userId: string, accountId: string): Promise<void> {
      const listed = await accounts.calendarAccounts(userId);
      const account = listed.find((row) => row.id === accountId);
      if (!account) throw new NotFoundError('No such calendar account');
      if (account.position === 0) return;
      if (account.needsReconnect) {
        throw new StateConflictError('Please connect this account again before Timeboxer syncs with it.');
      }
      const { calendar } = await settings.readiness(userId);
      // Sync off before the channel stops and the accounts change places, as in `remove`: no run
      // starts in between. The channel watches the old account's calendar: stopped while it is the sync's.
      await users.updatePreferences(userId, { syncActive: false }, clock());
      await deps.stopChannels?.(userId);
      const swapped = await accounts.makeSyncAccount(userId, accountId, calendar?.calendars ?? [], clock());
      if (!swapped) throw new NotFoundError('No such calendar account');
      await promoted(userId, swapped.promoted);
      log.info(
        { userId, accountId, provider: account.provider, previous: swapped.demoted?.id ?? null },
        'the sync uses another calendar account',
      );
    },

    /** Before an account is deleted: every grant revoked (every calendar account's), best effort, never throwing. */
    async revokeAll(userId: string): Promise<void> {
      const targets: ({ kind: IntegrationKind } | { accountId: string })[] = [{ kind: 'todoist' }];
      try {
        const listed = await accounts.calendarAccounts(userId);
        targets.push(...listed.map((row) => ({ accountId: row.id })));
      } catch (error) {
        log.warn({ err: error, userId }, 'listing calendar accounts before account deletion failed');
        targets.push({ kind: 'calendar' });
      }
      for (const target of targets) {
        try {
          await revokeAtProvider(userId, target);
        } catch (error) {
          log.warn({ err: error, userId, ...target }, 'revoking before account deletion failed');
        }
      }
    },

    /** Re-reads account type, user id, time zone and labels from Todoist. */
    refreshTodoist: (userId: string) =>
      whileConnected(() =>
        failingAs('todoist', async () => {
          const gateway = gateways.todoist;
          if (!gateway) return;
          const account = await tokens.withAccessToken(userId, 'todoist', (token) =>
            readTodoistAccount(gateway, token),
          );
          await settings.saveTodoistAccount(userId, account, clock());
        }),
      ),

    /**
     * Re-reads the calendars (and Microsoft's categories) from the sync's calendar account, and each
     * added account's address and calendars; an added account that must be connected again, or whose
     * provider fails now, keeps what was read before.
     */
    refreshCalendar: async (userId: string) => {
      const [sync, ...added] = await accounts.calendarAccounts(userId);
      await whileConnected(() =>
        failingAs('calendar', async () => {
          const gateway = sync && sync.position === 0 && calendarGateway(sync.provider);
          if (!sync || !gateway) return;
          const profile = await tokens.withAccessToken(userId, 'calendar', (token) => gateway.profile(token));
          await settings.saveCalendarAccount(
            userId,
            { calendars: profile.calendars, categories: profile.categories },
            clock(),
          );
          if (profile.email !== sync.email)
            await accounts.saveProfile(sync.id, { email: profile.email }, clock());
        }),
      );
      for (const account of added) {
        try {
          await whileConnected(() => refreshAccount(userId, account));
        } catch (error) {
          log.warn(
            { err: error, userId, accountId: account.id },
            'an added calendar account was not re-read',
          );
        }
      }
    },
  };
}
