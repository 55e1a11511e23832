import { numericIdFrom, randomAlphanumeric } from '../shared/ids.ts';
import { AuthorizationCodes, type CodeRequest } from '../shared/oauth/authorization-codes.ts';
import { GrantStore } from '../shared/oauth/grant-store.ts';

export type FacebookUser = { email: string; name: string };

/** A login dialog's code; `clientId` is the app id. */
export type DialogCode = CodeRequest & { scopes: string[]; email: string };

export const ACCESS_TOKEN_LIFETIME_SECONDS = 5183944;

export class FacebookStore {
  #users = new Map<string, FacebookUser>();
  // Used codes are remembered, so a second exchange gets Facebook's "has been used" error rather than "invalid".
  readonly codes = new AuthorizationCodes<DialogCode>(() => `AQ${randomAlphanumeric(180)}`);
  /** One grant per exchange, with its one long-lived access token and no refresh token. */
  readonly grants = new GrantStore<{ clientId: string; email: string; scopes: string[] }>({
    accessTokenLifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS,
    newAccessToken: () => `EAA${randomAlphanumeric(200)}`,
  });

  upsertUser(email: string, name: string): FacebookUser {
    const user = { email: email.trim().toLowerCase(), name };
    this.#users.set(user.email, user);
    return user;
  }

  user(email: string): FacebookUser | undefined {
    return this.#users.get(email);
  }

  reset(): void {
    this.#users.clear();
    this.codes.reset();
    this.grants.reset();
  }

  snapshot() {
    return {
      users: [...this.#users.values()],
      liveCodes: this.codes.liveCount(),
      tokens: this.grants.entries().flatMap(({ grant, accessTokens }) =>
        accessTokens.map(({ token, expiresAt }) => ({
          token,
          appId: grant.clientId,
          email: grant.email,
          userId: appScopedUserId(grant.clientId, grant.email),
          scopes: grant.scopes,
          expiresAt: new Date(expiresAt).toISOString(),
        })),
      ),
    };
  }
}

/** Facebook ids are per app: the same person has a different id in another app. */
export function appScopedUserId(appId: string, email: string): string {
  return numericIdFrom(`${appId}:${email.toLowerCase()}`, 17);
}
