import { numericIdFrom, randomAlphanumeric } from '../shared/ids.ts';
import type { PkceMethod } from '../shared/oauth/pkce.ts';

export type FacebookUser = { email: string; name: string };

export type DialogCode = {
  appId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | undefined;
  codeChallengeMethod: PkceMethod | undefined;
  email: string;
  expiresAt: number;
};

export type AccessToken = { appId: string; email: string; scopes: string[]; expiresAt: number };

const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const ACCESS_TOKEN_LIFETIME_SECONDS = 5183944;

export type CodeLookup = { status: 'valid'; code: DialogCode } | { status: 'used' | 'expired' | 'unknown' };

export class FacebookStore {
  #users = new Map<string, FacebookUser>();
  #codes = new Map<string, DialogCode>();
  // Remembered so a second exchange gets Facebook's "has been used" error rather than "invalid".
  #usedCodes = new Set<string>();
  #tokens = new Map<string, AccessToken>();

  upsertUser(email: string, name: string): FacebookUser {
    const user = { email: email.trim().toLowerCase(), name };
    this.#users.set(user.email, user);
    return user;
  }

  user(email: string): FacebookUser | undefined {
    return this.#users.get(email);
  }

  issueCode(details: Omit<DialogCode, 'expiresAt'>): string {
    const code = `AQ${randomAlphanumeric(180)}`;
    this.#codes.set(code, { ...details, expiresAt: Date.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** Consumes the code: it is single-use even if the exchange then fails. */
  takeCode(code: string): CodeLookup {
    if (this.#usedCodes.has(code)) return { status: 'used' };
    const found = this.#codes.get(code);
    if (!found) return { status: 'unknown' };
    this.#codes.delete(code);
    this.#usedCodes.add(code);
    return found.expiresAt > Date.now() ? { status: 'valid', code: found } : { status: 'expired' };
  }

  issueAccessToken(appId: string, email: string, scopes: string[]): string {
    const token = `EAA${randomAlphanumeric(200)}`;
    this.#tokens.set(token, {
      appId,
      email,
      scopes,
      expiresAt: Date.now() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000,
    });
    return token;
  }

  accessToken(token: string): AccessToken | undefined {
    return this.#tokens.get(token);
  }

  reset(): void {
    this.#users.clear();
    this.#codes.clear();
    this.#usedCodes.clear();
    this.#tokens.clear();
  }

  snapshot() {
    const now = Date.now();
    return {
      users: [...this.#users.values()],
      liveCodes: [...this.#codes.values()].filter((code) => code.expiresAt > now).length,
      tokens: [...this.#tokens].map(([token, details]) => ({
        token,
        appId: details.appId,
        email: details.email,
        userId: appScopedUserId(details.appId, details.email),
        scopes: details.scopes,
        expiresAt: new Date(details.expiresAt).toISOString(),
      })),
    };
  }
}

/** Facebook ids are per app: the same person has a different id in another app. */
export function appScopedUserId(appId: string, email: string): string {
  return numericIdFrom(`${appId}:${email.toLowerCase()}`, 17);
}
