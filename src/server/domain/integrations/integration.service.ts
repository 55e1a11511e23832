import { sortLabels } from '#shared/settings/rules.ts';
import type { SettingsRepository } from '../settings/settings.repository.ts';
import type { Clock } from '../shared/clock.port.ts';
import { NotConfiguredError } from '../shared/domain-errors.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { startConnectFlow } from './connect-flow.ts';
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
  settings: Pick<SettingsRepository, 'saveTodoistAccount' | 'saveCalendarAccount' | 'forgetCalendarChoice'>;
  users: Pick<UserRepository, 'updatePreferences'>;
  gateways: IntegrationGateways;
  clock: Clock;
  log: IntegrationLog;
};

export type IntegrationService = ReturnType<typeof createIntegrationService>;

/** Connecting, refreshing and removing the user's Todoist and calendar accounts. */
export function createIntegrationService(deps: Deps) {
  const { tokens, settings, users, gateways, clock, log } = deps;

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
  async function revokeAtProvider(userId: string, kind: IntegrationKind): Promise<void> {
    let stored: Awaited<ReturnType<TokenManager['tokens']>>;
    try {
      stored = await tokens.tokens(userId, kind);
    } catch (error) {
      log.warn({ err: error, userId, kind }, 'stored tokens unreadable; deleting them without revoking');
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

  async function remove(userId: string, kind: IntegrationKind): Promise<void> {
    await revokeAtProvider(userId, kind);
    await tokens.remove(userId, kind);
    await users.updatePreferences(userId, { syncActive: false }, clock());
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
    /** `loginHint`: the signed-in user's e-mail, offered first on the provider's account page. */
    async startConnect(
      userId: string,
      provider: IntegrationProvider,
      redirectUri: string,
      loginHint?: string,
    ) {
      const flow = startConnectFlow(provider, userId, loginHint);
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
      const previous = await tokens.connection(userId, 'calendar');
      // One calendar account per user. Reconnecting the same provider must not revoke: at Google,
      // revoking the old token would end the new grant too.
      if (previous && previous.provider !== provider) {
        await remove(userId, 'calendar');
        await settings.forgetCalendarChoice(userId, clock());
        log.info({ userId, from: previous.provider, to: provider }, 'calendar provider replaced');
      }
      await tokens.store({ userId, provider, kind, accountId: profile.accountId }, received);
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

    /** Before an account is deleted: every grant revoked, best effort, never throwing. */
    async revokeAll(userId: string): Promise<void> {
      for (const kind of ['todoist', 'calendar'] as const) {
        try {
          await revokeAtProvider(userId, kind);
        } catch (error) {
          log.warn({ err: error, userId, kind }, 'revoking before account deletion failed');
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

    /** Re-reads the calendars (and Microsoft's categories) from the connected calendar provider. */
    refreshCalendar: (userId: string) =>
      whileConnected(() =>
        failingAs('calendar', async () => {
          const current = await tokens.connection(userId, 'calendar');
          const gateway = current && calendarGateway(current.provider);
          if (!gateway) return;
          const profile = await tokens.withAccessToken(userId, 'calendar', (token) => gateway.profile(token));
          await settings.saveCalendarAccount(
            userId,
            { calendars: profile.calendars, categories: profile.categories },
            clock(),
          );
        }),
      ),
  };
}
