import { numericIdFrom, randomUrlSafe } from '../shared/ids.ts';
import type { PkceMethod } from '../shared/pkce.ts';

export type GoogleUser = { sub: string; email: string; name: string };

export type AuthorizationCode = {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  nonce: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: PkceMethod | undefined;
  /** `access_type=offline`: the grant may carry a refresh token. */
  offline: boolean;
  /** `prompt=consent`: re-issue a refresh token even if the user already has one for this client. */
  consentPrompted: boolean;
  sub: string;
  expiresAt: number;
};

/** What one authorization (or its refresh token) grants; revoking any of its tokens ends all of them. */
export type Grant = {
  id: string;
  clientId: string;
  sub: string;
  scopes: string[];
  refreshToken: string | undefined;
};

type AccessToken = { grantId: string; expiresAt: number };

const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3599;

export class GoogleIdentityStore {
  #users = new Map<string, GoogleUser>();
  #codes = new Map<string, AuthorizationCode>();
  #grants = new Map<string, Grant>();
  #accessTokens = new Map<string, AccessToken>();
  #refreshTokens = new Map<string, string>();

  /** The same lower-cased e-mail is always the same `sub`; the latest name wins. */
  upsertUser(email: string, name: string): GoogleUser {
    const normalized = email.trim().toLowerCase();
    const user = { sub: numericIdFrom(normalized, 21), email: normalized, name };
    this.#users.set(user.sub, user);
    return user;
  }

  user(sub: string): GoogleUser | undefined {
    return this.#users.get(sub);
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

  hasRefreshToken(clientId: string, sub: string): boolean {
    for (const grant of this.#grants.values()) {
      if (grant.clientId === clientId && grant.sub === sub && grant.refreshToken) return true;
    }
    return false;
  }

  createGrant(clientId: string, sub: string, scopes: string[], withRefreshToken: boolean): Grant {
    const grant: Grant = {
      id: randomUrlSafe(12),
      clientId,
      sub,
      scopes,
      refreshToken: withRefreshToken ? `1//0${randomUrlSafe(48)}` : undefined,
    };
    this.#grants.set(grant.id, grant);
    if (grant.refreshToken) this.#refreshTokens.set(grant.refreshToken, grant.id);
    return grant;
  }

  issueAccessToken(grant: Grant): string {
    const token = `ya29.${randomUrlSafe(64)}`;
    this.#accessTokens.set(token, {
      grantId: grant.id,
      expiresAt: Date.now() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000,
    });
    return token;
  }

  grantForAccessToken(token: string): Grant | undefined {
    const found = this.#accessTokens.get(token);
    if (!found || found.expiresAt <= Date.now()) return undefined;
    return this.#grants.get(found.grantId);
  }

  grantForRefreshToken(token: string): Grant | undefined {
    const grantId = this.#refreshTokens.get(token);
    return grantId === undefined ? undefined : this.#grants.get(grantId);
  }

  /** Like Google, revoking an access token also revokes its refresh token, and the other way round. */
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

  reset(): void {
    this.#users.clear();
    this.#codes.clear();
    this.#grants.clear();
    this.#accessTokens.clear();
    this.#refreshTokens.clear();
  }

  snapshot() {
    const now = Date.now();
    return {
      users: [...this.#users.values()],
      liveCodes: [...this.#codes.values()].filter((code) => code.expiresAt > now).length,
      grants: [...this.#grants.values()].map((grant) => ({
        ...grant,
        accessTokens: [...this.#accessTokens]
          .filter(([, details]) => details.grantId === grant.id)
          .map(([token, details]) => ({ token, expiresAt: new Date(details.expiresAt).toISOString() })),
      })),
    };
  }
}
