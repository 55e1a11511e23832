import { AsyncLocalStorage } from 'node:async_hooks';
import type { IntegrationRow } from '#server/db/schema/integrations.table.ts';
import type { Clock } from '../shared/clock.port.ts';
import { DomainError } from '../shared/domain-errors.ts';
import type { Connected, ConnectionRef, IntegrationRepository } from './integration.repository.ts';
import {
  GrantRevokedError,
  type IntegrationKind,
  type IntegrationProvider,
  type ProviderTokens,
  ProviderUnauthorizedError,
} from './integration-providers.port.ts';
import type { TokenCipher } from './token-cipher.ts';

/** Refreshes a provider's tokens; GrantRevokedError when the refresh token is no longer honoured. */
export type TokenRefresher = (refreshToken: string) => Promise<ProviderTokens>;

/** The user has no connection of this kind. */
export class NotConnectedError extends DomainError {
  readonly kind: IntegrationKind;

  constructor(kind: IntegrationKind) {
    super(`No ${kind} account is connected`);
    this.kind = kind;
  }
}

/** The provider no longer accepts our tokens; the connection is marked and the user must connect again. */
export class ReconnectRequiredError extends DomainError {
  readonly kind: IntegrationKind;
  /** The calendar account added beside the sync's that must be connected again (null: the sync's own). */
  readonly accountId: string | null;

  constructor(kind: IntegrationKind, options?: { cause?: unknown; accountId?: string | null }) {
    super(`The ${kind} account must be connected again`, options);
    this.kind = kind;
    this.accountId = options?.accountId ?? null;
  }
}

/**
 * Whose tokens a call needs: the sync's account of a kind, or one calendar account by its row id (an
 * account added beside the sync's).
 */
type Target = { userId: string; kind: IntegrationKind } | { userId: string; accountId: string };

type Deps = {
  integrations: IntegrationRepository;
  cipher: TokenCipher;
  refreshers: Partial<Record<IntegrationProvider, TokenRefresher>>;
  clock: Clock;
  /** Refresh this long before the access token expires (default 5 minutes). */
  refreshMarginMs?: number;
};

export type TokenManager = ReturnType<typeof createTokenManager>;

const ref = (row: IntegrationRow): ConnectionRef => ({ id: row.id, connectedAt: row.connectedAt });
const kindOf = (target: Target): IntegrationKind => ('kind' in target ? target.kind : 'calendar');
const accountOf = (target: Target): string | null => ('accountId' in target ? target.accountId : null);

/**
 * The one place that hands out provider access tokens: it decrypts them, refreshes them before they
 * expire or after the provider refused one, and stores what the refresh returned. Concurrent callers
 * for the same user and kind share one refresh (within this process).
 */
export function createTokenManager(deps: Deps) {
  const margin = deps.refreshMarginMs ?? 5 * 60_000;
  const inFlight = new Map<string, Promise<string>>();
  /** Rows read in the scope in progress (`inScope`), by user and kind. */
  const scope = new AsyncLocalStorage<Map<string, IntegrationRow>>();
  const scopeKey = (target: Target) =>
    'kind' in target ? `${target.userId}:${target.kind}` : `${target.userId}:account:${target.accountId}`;
  const read = (target: Target) =>
    'kind' in target
      ? deps.integrations.find(target.userId, target.kind)
      : deps.integrations.findAccount(target.userId, target.accountId);

  /** The connection's row; within a scope, read once (`fresh`: read again, as after a 401). */
  async function usable(target: Target, fresh = false): Promise<IntegrationRow> {
    const memo = scope.getStore();
    const row = (fresh ? undefined : memo?.get(scopeKey(target))) ?? (await read(target));
    const accountId = accountOf(target);
    if (!row) throw new NotConnectedError(kindOf(target));
    if (row.needsReconnect) throw new ReconnectRequiredError(kindOf(target), { accountId });
    memo?.set(scopeKey(target), row);
    return row;
  }

  async function markNeedsReconnect(target: Target, row: IntegrationRow, cause?: unknown): Promise<never> {
    scope.getStore()?.delete(scopeKey(target));
    await deps.integrations.markNeedsReconnect(ref(row), deps.clock());
    throw new ReconnectRequiredError(row.kind, { cause, accountId: accountOf(target) });
  }

  async function doRefresh(target: Target, row: IntegrationRow): Promise<string> {
    const refresher = deps.refreshers[row.provider];
    const refreshToken = row.refreshTokenEncrypted ? deps.cipher.decrypt(row.refreshTokenEncrypted) : null;
    if (!refresher || !refreshToken) return markNeedsReconnect(target, row);
    let tokens: ProviderTokens;
    try {
      tokens = await refresher(refreshToken);
    } catch (error) {
      if (error instanceof GrantRevokedError) return markNeedsReconnect(target, row, error);
      throw error; // a network failure or an outage says nothing about the grant
    }
    const stored = {
      accessTokenEncrypted: deps.cipher.encrypt(tokens.accessToken),
      // Google keeps the refresh token; Microsoft hands out a new one each time.
      refreshTokenEncrypted: deps.cipher.encrypt(tokens.refreshToken ?? refreshToken),
      keyId: deps.cipher.currentKeyId,
      expiresAt: tokens.expiresAt,
    };
    await deps.integrations.updateTokens(ref(row), stored, deps.clock());
    scope.getStore()?.set(scopeKey(target), { ...row, ...stored });
    return tokens.accessToken;
  }

  function refreshOnce(target: Target, row: IntegrationRow): Promise<string> {
    const key = row.id;
    let running = inFlight.get(key);
    if (!running) {
      running = doRefresh(target, row).finally(() => inFlight.delete(key));
      inFlight.set(key, running);
    }
    return running;
  }

  const expiring = (row: IntegrationRow) =>
    row.expiresAt !== null && row.expiresAt.getTime() - margin <= deps.clock().getTime();

  /** A valid access token for the connection. */
  async function tokenOf(target: Target): Promise<string> {
    const row = await usable(target);
    return expiring(row) ? refreshOnce(target, row) : deps.cipher.decrypt(row.accessTokenEncrypted);
  }

  /**
   * Calls the provider with a valid token. When the provider answers 401 (a token revoked or expired
   * early), refreshes once and retries; when that fails too, the connection needs reconnecting.
   */
  async function withToken<T>(target: Target, call: (token: string) => Promise<T>): Promise<T> {
    const token = await tokenOf(target);
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof ProviderUnauthorizedError)) throw error;
    }
    const row = await usable(target, true);
    const stored = deps.cipher.decrypt(row.accessTokenEncrypted);
    // Someone else refreshed meanwhile: use their token instead of refreshing again.
    const fresh = stored === token ? await refreshOnce(target, row) : stored;
    try {
      return await call(fresh);
    } catch (error) {
      if (error instanceof ProviderUnauthorizedError) return markNeedsReconnect(target, row, error);
      throw error;
    }
  }

  const clear = (row: IntegrationRow) => ({
    provider: row.provider,
    accessToken: deps.cipher.decrypt(row.accessTokenEncrypted),
    refreshToken: row.refreshTokenEncrypted ? deps.cipher.decrypt(row.refreshTokenEncrypted) : null,
  });

  return {
    /** A valid access token for the user's connection of this kind. */
    accessToken: (userId: string, kind: IntegrationKind) => tokenOf({ userId, kind }),

    /**
     * Runs `work` reading each connection's row once (a sync run calls the providers several times):
     * a refresh or a refusal within it reads the row again.
     */
    inScope<T>(work: () => Promise<T>): Promise<T> {
      return scope.run(new Map(), work);
    },

    /** Rows the work in scope has just read: its calls take their tokens from them. */
    known(rows: readonly IntegrationRow[]) {
      const memo = scope.getStore();
      for (const row of rows) {
        memo?.set(
          scopeKey(
            row.position === 0
              ? { userId: row.userId, kind: row.kind }
              : { userId: row.userId, accountId: row.id },
          ),
          row,
        );
      }
    },

    /** Which provider the user's connection of this kind is with, and whether it must be reconnected. */
    async connection(userId: string, kind: IntegrationKind) {
      const row = await deps.integrations.find(userId, kind);
      return row ? { provider: row.provider, needsReconnect: row.needsReconnect } : null;
    },

    /** Calls the provider with a valid token of the user's (sync's) connection of this kind. */
    withAccessToken: <T>(userId: string, kind: IntegrationKind, call: (token: string) => Promise<T>) =>
      withToken({ userId, kind }, call),

    /** Calls the provider with a valid token of one of the user's calendar accounts, by its row id. */
    withAccountToken: <T>(userId: string, accountId: string, call: (token: string) => Promise<T>) =>
      withToken({ userId, accountId }, call),

    /** The stored tokens in clear (for revocation at the provider), or null without a connection. */
    async tokens(userId: string, kind: IntegrationKind) {
      const row = await deps.integrations.find(userId, kind);
      return row ? clear(row) : null;
    },

    /** One calendar account's tokens in clear (for revocation), or null when it is not the user's. */
    async accountTokens(userId: string, accountId: string) {
      const row = await deps.integrations.findAccount(userId, accountId);
      return row ? clear(row) : null;
    },

    /** Forgets the sync's connection of this kind; an added calendar account promoted instead is returned. */
    remove: (userId: string, kind: IntegrationKind) => deps.integrations.delete(userId, kind, deps.clock()),

    /** Forgets one calendar account; when it was the sync's, the one promoted in its place is returned. */
    removeAccount: (userId: string, accountId: string) =>
      deps.integrations.removeAccount(userId, accountId, deps.clock()),

    /** Stores a connection's tokens, encrypted: the same account's row, or a new account (see `connect`). */
    store(
      connection: {
        userId: string;
        provider: IntegrationProvider;
        kind: IntegrationKind;
        accountId: string | null;
        email?: string | null;
      },
      tokens: ProviderTokens,
    ): Promise<Connected> {
      return deps.integrations.connect(
        {
          ...connection,
          accessTokenEncrypted: deps.cipher.encrypt(tokens.accessToken),
          refreshTokenEncrypted: tokens.refreshToken ? deps.cipher.encrypt(tokens.refreshToken) : null,
          keyId: deps.cipher.currentKeyId,
          expiresAt: tokens.expiresAt,
        },
        deps.clock(),
      );
    },
  };
}
