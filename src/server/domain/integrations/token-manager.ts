import { AsyncLocalStorage } from 'node:async_hooks';
import type { IntegrationRow } from '#server/db/schema/integrations.table.ts';
import type { Clock } from '../shared/clock.port.ts';
import { DomainError } from '../shared/domain-errors.ts';
import type { ConnectionRef, IntegrationRepository } from './integration.repository.ts';
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

  constructor(kind: IntegrationKind, options?: { cause?: unknown }) {
    super(`The ${kind} account must be connected again`, options);
    this.kind = kind;
  }
}

type Deps = {
  integrations: IntegrationRepository;
  cipher: TokenCipher;
  refreshers: Partial<Record<IntegrationProvider, TokenRefresher>>;
  clock: Clock;
  /** Refresh this long before the access token expires (default 5 minutes). */
  refreshMarginMs?: number;
};

export type TokenManager = ReturnType<typeof createTokenManager>;

const ref = (row: IntegrationRow): ConnectionRef => ({
  userId: row.userId,
  kind: row.kind,
  connectedAt: row.connectedAt,
});

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
  const scopeKey = (userId: string, kind: IntegrationKind) => `${userId}:${kind}`;

  /** The connection's row; within a scope, read once (`fresh`: read again, as after a 401). */
  async function usable(userId: string, kind: IntegrationKind, fresh = false): Promise<IntegrationRow> {
    const memo = scope.getStore();
    const row =
      (fresh ? undefined : memo?.get(scopeKey(userId, kind))) ?? (await deps.integrations.find(userId, kind));
    if (!row) throw new NotConnectedError(kind);
    if (row.needsReconnect) throw new ReconnectRequiredError(kind);
    memo?.set(scopeKey(userId, kind), row);
    return row;
  }

  async function markNeedsReconnect(row: IntegrationRow, cause?: unknown): Promise<never> {
    scope.getStore()?.delete(scopeKey(row.userId, row.kind));
    await deps.integrations.markNeedsReconnect(ref(row), deps.clock());
    throw new ReconnectRequiredError(row.kind, { cause });
  }

  async function doRefresh(row: IntegrationRow): Promise<string> {
    const refresher = deps.refreshers[row.provider];
    const refreshToken = row.refreshTokenEncrypted ? deps.cipher.decrypt(row.refreshTokenEncrypted) : null;
    if (!refresher || !refreshToken) return markNeedsReconnect(row);
    let tokens: ProviderTokens;
    try {
      tokens = await refresher(refreshToken);
    } catch (error) {
      if (error instanceof GrantRevokedError) return markNeedsReconnect(row, error);
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
    scope.getStore()?.set(scopeKey(row.userId, row.kind), { ...row, ...stored });
    return tokens.accessToken;
  }

  function refreshOnce(row: IntegrationRow): Promise<string> {
    const key = `${row.userId}:${row.kind}`;
    let running = inFlight.get(key);
    if (!running) {
      running = doRefresh(row).finally(() => inFlight.delete(key));
      inFlight.set(key, running);
    }
    return running;
  }

  const expiring = (row: IntegrationRow) =>
    row.expiresAt !== null && row.expiresAt.getTime() - margin <= deps.clock().getTime();

  /** A valid access token for the user's connection of this kind. */
  async function accessToken(userId: string, kind: IntegrationKind): Promise<string> {
    const row = await usable(userId, kind);
    return expiring(row) ? refreshOnce(row) : deps.cipher.decrypt(row.accessTokenEncrypted);
  }

  return {
    accessToken,

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
      for (const row of rows) memo?.set(scopeKey(row.userId, row.kind), row);
    },

    /** Which provider the user's connection of this kind is with, and whether it must be reconnected. */
    async connection(userId: string, kind: IntegrationKind) {
      const row = await deps.integrations.find(userId, kind);
      return row ? { provider: row.provider, needsReconnect: row.needsReconnect } : null;
    },

    /**
     * Calls the provider with a valid token. When the provider answers 401 (a token revoked or expired
     * early), refreshes once and retries; when that fails too, the connection needs reconnecting.
     */
    async withAccessToken<T>(
      userId: string,
      kind: IntegrationKind,
      call: (token: string) => Promise<T>,
    ): Promise<T> {
      const token = await accessToken(userId, kind);
      try {
        return await call(token);
      } catch (error) {
        if (!(error instanceof ProviderUnauthorizedError)) throw error;
      }
      const row = await usable(userId, kind, true);
      const stored = deps.cipher.decrypt(row.accessTokenEncrypted);
      // Someone else refreshed meanwhile: use their token instead of refreshing again.
      const fresh = stored === token ? await refreshOnce(row) : stored;
      try {
        return await call(fresh);
      } catch (error) {
        if (error instanceof ProviderUnauthorizedError) return markNeedsReconnect(row, error);
        throw error;
      }
    },

    /** The stored tokens in clear (for revocation at the provider), or null without a connection. */
    async tokens(userId: string, kind: IntegrationKind) {
      const row = await deps.integrations.find(userId, kind);
      if (!row) return null;
      return {
        provider: row.provider,
        accessToken: deps.cipher.decrypt(row.accessTokenEncrypted),
        refreshToken: row.refreshTokenEncrypted ? deps.cipher.decrypt(row.refreshTokenEncrypted) : null,
      };
    },

    /** Forgets the connection and its tokens. */
    remove: (userId: string, kind: IntegrationKind) => deps.integrations.delete(userId, kind),

    /** Stores a new connection's tokens, encrypted. */
    async store(
      connection: {
        userId: string;
        provider: IntegrationProvider;
        kind: IntegrationKind;
        accountId: string | null;
      },
      tokens: ProviderTokens,
    ): Promise<void> {
      await deps.integrations.upsert(
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
