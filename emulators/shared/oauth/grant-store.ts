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

export type GrantStoreOptions<D extends GrantData = GrantData> = {
  accessTokenLifetimeSeconds: number;
  newAccessToken: () => string;
  /** Left out by providers without refresh tokens (Facebook's long-lived tokens). */
  newRefreshToken?: () => string;
  /** Refresh tokens never expire when left out (Google's live until revoked). */
  refreshTokenLifetimeMs?: number;
  /** Whom a grant is for (a Google account …), when grants are looked up by it (`grantsFor`). */
  subjectOf?: (grant: D) => string;
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
  readonly #options: GrantStoreOptions<D>;
  #grants = new Map<string, Grant<D>>();
  #accessTokens = new Map<string, AccessToken>();
  #refreshTokens = new Map<string, RefreshToken>();
  #revokedRefreshTokens = new Set<string>();
  // Indexes, so that a grant's tokens and a subject's grants are found without going through everyone's
  // (the benchmark connects thousands of accounts): each grant's tokens in the order issued, and the
  // ids of each subject's grants (with `subjectOf`).
  #tokensOfGrant = new Map<string, { access: Set<string>; refresh: Set<string> }>();
  #grantsOfSubject = new Map<string, Set<string>>();

  constructor(options: GrantStoreOptions<D>) {
    this.#options = options;
    this.accessTokenLifetimeSeconds = options.accessTokenLifetimeSeconds;
  }

  createGrant(details: D): Grant<D> {
    const grant: Grant<D> = { ...details, id: randomUrlSafe(12) };
    this.#grants.set(grant.id, grant);
    const subject = this.#options.subjectOf?.(grant);
    if (subject !== undefined) {
      const ids = this.#grantsOfSubject.get(subject) ?? new Set();
      this.#grantsOfSubject.set(subject, ids.add(grant.id));
    }
    return grant;
  }

  grants(): Grant<D>[] {
    return [...this.#grants.values()];
  }

  /** The live grants for a subject (as `subjectOf` names it), oldest first. */
  grantsFor(subject: string): Grant<D>[] {
    if (!this.#options.subjectOf) throw new Error('This store has no subjectOf to look grants up by');
    return [...(this.#grantsOfSubject.get(subject) ?? [])].flatMap((id) => this.#grants.get(id) ?? []);
  }

  /** The grant's tokens (in `#tokensOfGrant`), an empty entry made on first use. */
  #tokensOf(grantId: string): { access: Set<string>; refresh: Set<string> } {
    let tokens = this.#tokensOfGrant.get(grantId);
    if (!tokens) {
      tokens = { access: new Set(), refresh: new Set() };
      this.#tokensOfGrant.set(grantId, tokens);
    }
    return tokens;
  }

  issueAccessToken(grant: Grant<D>, scopes: string[] = grant.scopes): string {
    const token = this.#options.newAccessToken();
    const expiresAt = Date.now() + this.accessTokenLifetimeSeconds * 1000;
    this.#accessTokens.set(token, { grantId: grant.id, scopes, expiresAt });
    this.#tokensOf(grant.id).access.add(token);
    return token;
  }

  issueRefreshToken(grant: Grant<D>): string {
    const { newRefreshToken } = this.#options;
    if (!newRefreshToken) throw new Error('This provider issues no refresh tokens');
    const token = newRefreshToken();
    const lifetime = this.#options.refreshTokenLifetimeMs ?? Number.POSITIVE_INFINITY;
    this.#refreshTokens.set(token, { grantId: grant.id, expiresAt: Date.now() + lifetime });
    this.#tokensOf(grant.id).refresh.add(token);
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
    return (this.#tokensOfGrant.get(grant.id)?.refresh.size ?? 0) > 0;
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
    this.#remove(grant);
    return true;
  }

  /** Ends every grant `matches` picks, with all its tokens, as a consent removed; answers those ended. */
  removeGrants(matches: (grant: Grant<D>) => boolean): Grant<D>[] {
    const removed = this.grants().filter(matches);
    for (const grant of removed) this.#remove(grant);
    return removed;
  }

  #remove(grant: Grant<D>): void {
    this.#grants.delete(grant.id);
    const subject = this.#options.subjectOf?.(grant);
    if (subject !== undefined) this.#grantsOfSubject.get(subject)?.delete(grant.id);
    const tokens = this.#tokensOfGrant.get(grant.id);
    this.#tokensOfGrant.delete(grant.id);
    for (const key of tokens?.refresh ?? []) this.#refreshTokens.delete(key);
    for (const key of tokens?.access ?? []) this.#accessTokens.delete(key);
  }

  /** Like a password change: the refresh tokens (of matching grants) stop working and say so. */
  revokeRefreshTokens(matches: (grant: Grant<D> | undefined) => boolean = () => true): number {
    let count = 0;
    for (const [token, details] of this.#refreshTokens) {
      if (!matches(this.#grants.get(details.grantId))) continue;
      this.#refreshTokens.delete(token);
      this.#tokensOfGrant.get(details.grantId)?.refresh.delete(token);
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
    return this.grants().map((grant) => {
      const tokens = this.#tokensOfGrant.get(grant.id);
      return {
        grant,
        accessTokens: [...(tokens?.access ?? [])].flatMap((token) => {
          const details = this.#accessTokens.get(token);
          return details ? [{ token, scopes: details.scopes, expiresAt: details.expiresAt }] : [];
        }),
        refreshTokens: [...(tokens?.refresh ?? [])].flatMap((token) => {
          const details = this.#refreshTokens.get(token);
          return details ? [{ token, expiresAt: details.expiresAt }] : [];
        }),
      };
    });
  }

  reset(): void {
    this.#grants.clear();
    this.#accessTokens.clear();
    this.#refreshTokens.clear();
    this.#revokedRefreshTokens.clear();
    this.#tokensOfGrant.clear();
    this.#grantsOfSubject.clear();
  }
}
