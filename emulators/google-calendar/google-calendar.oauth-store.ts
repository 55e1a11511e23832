import { randomUrlSafe } from '../shared/ids.ts';
import type { PkceMethod } from '../shared/pkce.ts';

export type AuthorizationCode = {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | undefined;
  codeChallengeMethod: PkceMethod | undefined;
  /** `access_type=offline`: the grant may carry a refresh token. */
  offline: boolean;
  /** `prompt=consent`: re-issue a refresh token even if the account already has one for this client. */
  consentPrompted: boolean;
  email: string;
  expiresAt: number;
};

/** One authorization; revoking any of its tokens ends all of them, as at Google. */
export type Grant = {
  id: string;
  clientId: string;
  email: string;
  scopes: string[];
  refreshToken: string | undefined;
};

export type AccessGrant = Grant & { accessTokenExpiresAt: number };

type AccessToken = { grantId: string; expiresAt: number };

const CODE_LIFETIME_MS = 10 * 60 * 1000;

export class OAuthStore {
  #codes = new Map<string, AuthorizationCode>();
  #grants = new Map<string, Grant>();
  #accessTokens = new Map<string, AccessToken>();
  #refreshTokens = new Map<string, string>();
  readonly accessTokenLifetimeSeconds: number;

  constructor(accessTokenLifetimeSeconds: number) {
    this.accessTokenLifetimeSeconds = accessTokenLifetimeSeconds;
  }

  issueCode(details: Omit<AuthorizationCode, 'expiresAt'>): string {
    const code = `4/0${randomUrlSafe(40)}`;
    this.#codes.set(code, { ...details, expiresAt: Date.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** Removes the code whatever happens next, so a failed exchange cannot be retried with it. */
  takeCode(code: string): AuthorizationCode | undefined {
    const found = this.#codes.get(code);
    this.#codes.delete(code);
    return found && found.expiresAt > Date.now() ? found : undefined;
  }

  hasRefreshToken(clientId: string, email: string): boolean {
    for (const grant of this.#grants.values()) {
      if (grant.clientId === clientId && grant.email === email && grant.refreshToken) return true;
    }
    return false;
  }

  createGrant(clientId: string, email: string, scopes: string[], withRefreshToken: boolean): Grant {
    const grant: Grant = {
      id: randomUrlSafe(12),
      clientId,
      email,
      scopes,
      refreshToken: withRefreshToken ? `1//0${randomUrlSafe(48)}` : undefined,
    };
    this.#grants.set(grant.id, grant);
    if (grant.refreshToken) this.#refreshTokens.set(grant.refreshToken, grant.id);
    return grant;
  }

  issueAccessToken(grant: Grant): string {
    const token = `ya29.${randomUrlSafe(64)}`;
    const expiresAt = Date.now() + this.accessTokenLifetimeSeconds * 1000;
    this.#accessTokens.set(token, { grantId: grant.id, expiresAt });
    return token;
  }

  /** The grant behind a live access token; expired and revoked tokens have none. */
  grantForAccessToken(token: string): AccessGrant | undefined {
    const found = this.#accessTokens.get(token);
    if (!found || found.expiresAt <= Date.now()) return undefined;
    const grant = this.#grants.get(found.grantId);
    return grant && { ...grant, accessTokenExpiresAt: found.expiresAt };
  }

  grantForRefreshToken(token: string): Grant | undefined {
    const grantId = this.#refreshTokens.get(token);
    return grantId === undefined ? undefined : this.#grants.get(grantId);
  }

  revoke(token: string): boolean {
    const grant = this.grantForAccessToken(token) ?? this.grantForRefreshToken(token);
    if (!grant) return false;
    this.#grants.delete(grant.id);
    if (grant.refreshToken) this.#refreshTokens.delete(grant.refreshToken);
    for (const [accessToken, details] of this.#accessTokens) {
      if (details.grantId === grant.id) this.#accessTokens.delete(accessToken);
    }
    return true;
  }

  /** Control: makes live access tokens (of one account, or all) expire now; refresh tokens stay. */
  expireAccessTokens(email?: string): number {
    let expired = 0;
    const now = Date.now();
    for (const details of this.#accessTokens.values()) {
      const grant = this.#grants.get(details.grantId);
      if (details.expiresAt <= now || (email && grant?.email !== email)) continue;
      details.expiresAt = now;
      expired += 1;
    }
    return expired;
  }

  reset(): void {
    this.#codes.clear();
    this.#grants.clear();
    this.#accessTokens.clear();
    this.#refreshTokens.clear();
  }

  snapshot() {
    const now = Date.now();
    return {
      liveCodes: [...this.#codes.values()].filter((code) => code.expiresAt > now).length,
      grants: [...this.#grants.values()].map((grant) => ({
        ...grant,
        accessTokens: [...this.#accessTokens]
          .filter(([, details]) => details.grantId === grant.id)
          .map(([token, details]) => ({
            token,
            expiresAt: new Date(details.expiresAt).toISOString(),
            expired: details.expiresAt <= now,
          })),
      })),
    };
  }
}
