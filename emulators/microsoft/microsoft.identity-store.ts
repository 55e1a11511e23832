import { randomUrlSafe } from '../shared/ids.ts';
import { AuthorizationCodes, type CodeRequest } from '../shared/oauth/authorization-codes.ts';
import { type Grant, GrantStore } from '../shared/oauth/grant-store.ts';

export type MicrosoftCode = CodeRequest & { scopes: string[]; userId: string; tenantId: string };

/** One consent of a user to a client; its refresh tokens keep it alive. */
export type MicrosoftGrantData = { clientId: string; userId: string; tenantId: string; scopes: string[] };
export type MicrosoftGrant = Grant<MicrosoftGrantData>;

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3599;
const REFRESH_TOKEN_LIFETIME_MS = 90 * 24 * 3600 * 1000;

/**
 * Codes and grants in the identity platform's formats. Every token answer carries a new refresh token
 * and the earlier ones stay valid, as with Microsoft; a revoked one is told apart from an unknown one.
 */
export class IdentityStore {
  readonly codes = new AuthorizationCodes<MicrosoftCode>(
    () => `M.C5${randomUrlSafe(6)}_BAY.2.U.${randomUrlSafe(36)}`,
  );
  readonly grants = new GrantStore<MicrosoftGrantData>({
    accessTokenLifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS,
    newAccessToken: () => `EwA${randomUrlSafe(96)}`,
    newRefreshToken: () => `M.C5${randomUrlSafe(6)}_BL2.0.U.${randomUrlSafe(120)}`,
    refreshTokenLifetimeMs: REFRESH_TOKEN_LIFETIME_MS,
  });

  /** Grants of one user, or all when no user is named. */
  static ofUser(userId: string | undefined) {
    return (grant: MicrosoftGrant | undefined) => !userId || grant?.userId === userId;
  }

  reset(): void {
    this.codes.reset();
    this.grants.reset();
  }

  snapshot() {
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      liveCodes: this.codes.liveCount(),
      grants: this.grants.entries().map(({ grant, accessTokens, refreshTokens }) => ({
        ...grant,
        accessTokens: accessTokens.map((token) => ({ ...token, expiresAt: iso(token.expiresAt) })),
        refreshTokens: refreshTokens.map((token) => ({ ...token, expiresAt: iso(token.expiresAt) })),
      })),
    };
  }
}
