import { randomUrlSafe } from '../ids.ts';

/** What every grant holds; providers add who it is for (a Google `sub`, a Microsoft user and tenant …). */
export type GrantData = { clientId: string; scopes: string[] };

/** One authorization of a client by a user, with the access and refresh tokens issued on it. */
export type Grant<D extends GrantData> = D & { id: string };

export type AccessTokenLookup<D extends GrantData> =
  | { status: 'valid'; grant: Grant<D>; scopes: string[]; expiresAt: number }
  | { status: 'expired'; grant: Grant<D> }
  | { status: 'unknown' };

export type RefreshTokenLookup<D extends GrantData> =
  | { status: 'valid'; grant: Grant<D> }
  | { status: 'revoked' | 'unknown' };

export type GrantStoreOptions = {
  accessTokenLifetimeSeconds: number;
  newAccessToken: () => string;
  /** Left out by providers without refresh tokens (Facebook's long-lived tokens). */
  newRefreshToken?: () => string;
  /** Refresh tokens never expire when left out (Google's live until revoked). */
  refreshTokenLifetimeMs?: number;
};

type AccessToken = { grantId: string; scopes: string[]; expiresAt: number };
type RefreshToken = { grantId: string; expiresAt: number };

/** How a grant's tokens show in an emulator's state view. */
export type GrantEntry<D extends GrantData> = {
  grant: Grant<D>;
  accessTokens: { token: string; scopes: string[]; expiresAt: number }[];
  refreshTokens: { token: string; expiresAt: number }[];
};

/**
 * Grants and their tokens. Access tokens expire after the configured lifetime and may carry fewer
 * scopes than the grant; a grant may hold any number of refresh tokens (Google issues one, Microsoft a
 * new one with every answer and keeps the earlier ones valid).
 */
export class GrantStore<D extends GrantData> {
  readonly accessTokenLifetimeSeconds: number;
  readonly #options: GrantStoreOptions;
  #grants = new Map<string, Grant<D>>();
  #accessTokens = new Map<string, AccessToken>();
  #refreshTokens = new Map<string, RefreshToken>();
  #revokedRefreshTokens = new Set<string>();

  constructor(options: GrantStoreOptions) {
    this.#options = options;
    this.accessTokenLifetimeSeconds = options.accessTokenLifetimeSeconds;
  }

  createGrant(details: D): Grant<D> {
    const grant: Grant<D> = { ...details, id: randomUrlSafe(12) };
    this.#grants.set(grant.id, grant);
    return grant;
  }

  grants(): Grant<D>[] {
    return [...this.#grants.values()];
  }

  issueAccessToken(grant: Grant<D>, scopes: string[] = grant.scopes): string {
    const token = this.#options.newAccessToken();
    const expiresAt = Date.now() + this.accessTokenLifetimeSeconds * 1000;
    this.#accessTokens.set(token, { grantId: grant.id, scopes, expiresAt });
    return token;
  }

  issueRefreshToken(grant: Grant<D>): string {
    const { newRefreshToken } = this.#options;
    if (!newRefreshToken) throw new Error('This provider issues no refresh tokens');
    const token = newRefreshToken();
    const lifetime = this.#options.refreshTokenLifetimeMs ?? Number.POSITIVE_INFINITY;
    this.#refreshTokens.set(token, { grantId: grant.id, expiresAt: Date.now() + lifetime });
    return token;
  }

  accessToken(token: string): AccessTokenLookup<D> {
    const found = this.#accessTokens.get(token);
    const grant = found ? this.#grants.get(found.grantId) : undefined;
    if (!found || !grant) return { status: 'unknown' };
    if (found.expiresAt <= Date.now()) return { status: 'expired', grant };
    return { status: 'valid', grant, scopes: found.scopes, expiresAt: found.expiresAt };
  }

  refreshToken(token: string): RefreshTokenLookup<D> {
    if (this.#revokedRefreshTokens.has(token)) return { status: 'revoked' };
    const found = this.#refreshTokens.get(token);
    const grant = found && found.expiresAt > Date.now() ? this.#grants.get(found.grantId) : undefined;
    return grant ? { status: 'valid', grant } : { status: 'unknown' };
  }

  hasRefreshToken(grant: Grant<D>): boolean {
    for (const details of this.#refreshTokens.values()) if (details.grantId === grant.id) return true;
    return false;
  }

  /**
   * Ends the grant behind a live access token or a refresh token, with all its tokens, as Google's
   * revocation does. False when the token names no grant.
   */
  revokeGrant(token: string): boolean {
    const access = this.accessToken(token);
    const refresh = this.refreshToken(token);
    const grant =
      access.status === 'valid' ? access.grant : refresh.status === 'valid' ? refresh.grant : undefined;
    if (!grant) return false;
    this.#grants.delete(grant.id);
    for (const [key, details] of this.#refreshTokens) {
      if (details.grantId === grant.id) this.#refreshTokens.delete(key);
    }
    for (const [key, details] of this.#accessTokens) {
      if (details.grantId === grant.id) this.#accessTokens.delete(key);
    }
    return true;
  }

  /** Like a password change: the refresh tokens (of matching grants) stop working and say so. */
  revokeRefreshTokens(matches: (grant: Grant<D> | undefined) => boolean = () => true): number {
    let count = 0;
    for (const [token, details] of this.#refreshTokens) {
      if (!matches(this.#grants.get(details.grantId))) continue;
      this.#refreshTokens.delete(token);
      this.#revokedRefreshTokens.add(token);
      count += 1;
    }
    return count;
  }

  /**
   * Makes the access tokens (of matching grants) expire now; refresh tokens stay. Counts the tokens it
   * expired, or with `recount` every matching token, already expired ones included.
   */
  expireAccessTokens(
    matches: (grant: Grant<D> | undefined) => boolean = () => true,
    options: { recount?: boolean } = {},
  ): number {
    let count = 0;
    const now = Date.now();
    for (const details of this.#accessTokens.values()) {
      if (!matches(this.#grants.get(details.grantId))) continue;
      if (options.recount) {
        details.expiresAt = now - 1;
      } else {
        if (details.expiresAt <= now) continue;
        details.expiresAt = now;
      }
      count += 1;
    }
    return count;
  }

  entries(): GrantEntry<D>[] {
    return this.grants().map((grant) => ({
      grant,
      accessTokens: [...this.#accessTokens]
        .filter(([, details]) => details.grantId === grant.id)
        .map(([token, details]) => ({ token, scopes: details.scopes, expiresAt: details.expiresAt })),
      refreshTokens: [...this.#refreshTokens]
        .filter(([, details]) => details.grantId === grant.id)
        .map(([token, details]) => ({ token, expiresAt: details.expiresAt })),
    }));
  }

  reset(): void {
    this.#grants.clear();
    this.#accessTokens.clear();
    this.#refreshTokens.clear();
    this.#revokedRefreshTokens.clear();
  }
}
