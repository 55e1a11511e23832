import { randomUrlSafe } from '../shared/ids.ts';
import type { PkceMethod } from '../shared/pkce.ts';

export type AuthorizationCode = {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | undefined;
  codeChallengeMethod: PkceMethod | undefined;
  userId: string;
  tenantId: string;
  expiresAt: number;
};

/** One consent of a user to a client; its refresh tokens keep it alive. */
export type Grant = { id: string; clientId: string; userId: string; tenantId: string; scopes: string[] };

type AccessToken = { grantId: string; scopes: string[]; expiresAt: number };
type RefreshToken = { grantId: string; expiresAt: number };

export type AccessTokenLookup =
  | { status: 'valid'; grant: Grant; scopes: string[] }
  | { status: 'expired' }
  | { status: 'unknown' };

const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3599;
const REFRESH_TOKEN_LIFETIME_MS = 90 * 24 * 3600 * 1000;

export class IdentityStore {
  #codes = new Map<string, AuthorizationCode>();
  #redeemedCodes = new Set<string>();
  #grants = new Map<string, Grant>();
  #accessTokens = new Map<string, AccessToken>();
  #refreshTokens = new Map<string, RefreshToken>();
  #revokedRefreshTokens = new Set<string>();

  issueCode(details: Omit<AuthorizationCode, 'expiresAt'>): string {
    const code = `M.C5${randomUrlSafe(6)}_BAY.2.U.${randomUrlSafe(36)}`;
    this.#codes.set(code, { ...details, expiresAt: Date.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** A code works once; a second try is told it was already redeemed. */
  takeCode(code: string): AuthorizationCode | 'redeemed' | 'expired' | undefined {
    if (this.#redeemedCodes.has(code)) return 'redeemed';
    const found = this.#codes.get(code);
    if (!found) return undefined;
    this.#codes.delete(code);
    this.#redeemedCodes.add(code);
    return found.expiresAt > Date.now() ? found : 'expired';
  }

  createGrant(details: Omit<Grant, 'id'>): Grant {
    const grant = { ...details, id: randomUrlSafe(12) };
    this.#grants.set(grant.id, grant);
    return grant;
  }

  issueAccessToken(grant: Grant, scopes: string[]): string {
    const token = `EwA${randomUrlSafe(96)}`;
    this.#accessTokens.set(token, {
      grantId: grant.id,
      scopes,
      expiresAt: Date.now() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000,
    });
    return token;
  }

  /** A new refresh token for the grant. Earlier ones stay valid, as with Microsoft. */
  issueRefreshToken(grant: Grant): string {
    const token = `M.C5${randomUrlSafe(6)}_BL2.0.U.${randomUrlSafe(120)}`;
    this.#refreshTokens.set(token, { grantId: grant.id, expiresAt: Date.now() + REFRESH_TOKEN_LIFETIME_MS });
    return token;
  }

  lookupAccessToken(token: string): AccessTokenLookup {
    const found = this.#accessTokens.get(token);
    const grant = found ? this.#grants.get(found.grantId) : undefined;
    if (!found || !grant) return { status: 'unknown' };
    if (found.expiresAt <= Date.now()) return { status: 'expired' };
    return { status: 'valid', grant, scopes: found.scopes };
  }

  grantForRefreshToken(token: string): Grant | 'revoked' | undefined {
    if (this.#revokedRefreshTokens.has(token)) return 'revoked';
    const found = this.#refreshTokens.get(token);
    if (!found || found.expiresAt <= Date.now()) return undefined;
    return this.#grants.get(found.grantId);
  }

  /** Control: every access token (of one user, or all) expires now; refresh tokens still work. */
  expireAccessTokens(userId?: string): number {
    let count = 0;
    for (const details of this.#accessTokens.values()) {
      const grant = this.#grants.get(details.grantId);
      if (userId && grant?.userId !== userId) continue;
      details.expiresAt = Date.now() - 1;
      count += 1;
    }
    return count;
  }

  /** Control: like a password change, every refresh token (of one user, or all) stops working. */
  revokeRefreshTokens(userId?: string): number {
    let count = 0;
    for (const [token, details] of this.#refreshTokens) {
      const grant = this.#grants.get(details.grantId);
      if (userId && grant?.userId !== userId) continue;
      this.#refreshTokens.delete(token);
      this.#revokedRefreshTokens.add(token);
      count += 1;
    }
    return count;
  }

  reset(): void {
    this.#codes.clear();
    this.#redeemedCodes.clear();
    this.#grants.clear();
    this.#accessTokens.clear();
    this.#refreshTokens.clear();
    this.#revokedRefreshTokens.clear();
  }

  snapshot() {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      liveCodes: [...this.#codes.values()].filter((code) => code.expiresAt > now).length,
      grants: [...this.#grants.values()].map((grant) => ({
        ...grant,
        accessTokens: [...this.#accessTokens]
          .filter(([, details]) => details.grantId === grant.id)
          .map(([token, details]) => ({ token, scopes: details.scopes, expiresAt: iso(details.expiresAt) })),
        refreshTokens: [...this.#refreshTokens]
          .filter(([, details]) => details.grantId === grant.id)
          .map(([token, details]) => ({ token, expiresAt: iso(details.expiresAt) })),
      })),
    };
  }
}
