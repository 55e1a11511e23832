import type { FastifyInstance } from 'fastify';
import { randomUrlSafe } from '../ids.ts';
import { readParams } from '../params.ts';
import { AuthorizationCodes, type CodeRequest } from './authorization-codes.ts';
import { type Grant, GrantStore } from './grant-store.ts';
import { OAuthError, type TokenFailure } from './oauth-error.ts';
import { registerTokenEndpoint } from './token-endpoint.ts';

/**
 * Google's OAuth server as both Google emulators (sign-in and Calendar) speak it: the same code and
 * token formats, the same `/token` and `/revoke` answers. What differs is passed in: the scopes, the
 * account a grant is for (a `sub` or an e-mail) and, for sign-in, the ID token.
 */

export type GoogleOAuthClient = {
  clientId: string;
  clientSecret: string;
  /** Shown on the consent page; defaults to the client id. */
  name?: string;
  /** When given, the only redirect URIs the consent accepts (exact match, as Google checks them). */
  redirectUris?: readonly string[];
};

export type GoogleCode = CodeRequest & {
  scopes: string[];
  nonce: string | undefined;
  /** `access_type=offline`: the grant may carry a refresh token. */
  offline: boolean;
  /** `prompt=consent`: re-issue a refresh token even if the account already has one for this client. */
  consentPrompted: boolean;
  /** Whom the grant is for: the user's `sub` at sign-in, the account's e-mail at Calendar. */
  account: string;
};

/** One authorization; revoking any of its tokens ends all of them, as at Google. */
export type GoogleGrantData = { clientId: string; account: string; scopes: string[] };
export type GoogleGrant = Grant<GoogleGrantData>;

export class GoogleOAuth {
  readonly codes = new AuthorizationCodes<GoogleCode>(() => `4/0${randomUrlSafe(40)}`);
  readonly grants: GrantStore<GoogleGrantData>;

  constructor(accessTokenLifetimeSeconds: number) {
    this.grants = new GrantStore({
      accessTokenLifetimeSeconds,
      newAccessToken: () => `ya29.${randomUrlSafe(64)}`,
      newRefreshToken: () => `1//0${randomUrlSafe(48)}`,
      subjectOf: (grant) => grant.account,
    });
  }

  /** Google hands out a refresh token once per account and client, unless consent was asked for again. */
  hasRefreshToken(clientId: string, account: string): boolean {
    return this.grants
      .grantsFor(account)
      .some((grant) => grant.clientId === clientId && this.grants.hasRefreshToken(grant));
  }

  reset(): void {
    this.codes.reset();
    this.grants.reset();
  }

  /** The state view: the account under its own name (`sub` or `email`), the one refresh token, the access tokens. */
  snapshot(accountField: 'sub' | 'email', options: { showExpired: boolean }) {
    const now = Date.now();
    return {
      liveCodes: this.codes.liveCount(),
      grants: this.grants.entries().map(({ grant, accessTokens, refreshTokens }) => ({
        id: grant.id,
        clientId: grant.clientId,
        [accountField]: grant.account,
        scopes: grant.scopes,
        refreshToken: refreshTokens[0]?.token,
        accessTokens: accessTokens.map((token) => ({
          token: token.token,
          expiresAt: new Date(token.expiresAt).toISOString(),
          ...(options.showExpired ? { expired: token.expiresAt <= now } : {}),
        })),
      })),
    };
  }
}

export type GoogleTokenRouteOptions = {
  oauth: GoogleOAuth;
  clients: ReadonlyMap<string, GoogleOAuthClient>;
  /** What `/token` says of a bad code (sign-in and Calendar were captured saying different things). */
  invalidCodeMessage: string;
  /** The `scope` of an answer: the granted scopes in Google's long form. */
  formatScope: (scopes: readonly string[]) => string;
  /** The `id_token` to add to an answer, if any (sign-in with the `openid` scope). */
  idToken?: (
    grant: GoogleGrant,
    accessToken: string,
    nonce: string | undefined,
  ) => Promise<string | undefined>;
};

/** oauth2.googleapis.com: `/token` (code and refresh grants) and `/revoke`. */
export function registerGoogleTokenRoutes(app: FastifyInstance, options: GoogleTokenRouteOptions): void {
  const { oauth } = options;
  const answer = async (grant: GoogleGrant, nonce: string | undefined) => {
    const accessToken = oauth.grants.issueAccessToken(grant);
    const response: Record<string, unknown> = {
      access_token: accessToken,
      expires_in: oauth.grants.accessTokenLifetimeSeconds,
      scope: options.formatScope(grant.scopes),
      token_type: 'Bearer',
    };
    const idToken = await options.idToken?.(grant, accessToken, nonce);
    if (idToken) response.id_token = idToken;
    return response;
  };

  registerTokenEndpoint(app, {
    path: '/token',
    clients: options.clients,
    codes: oauth.codes,
    grants: oauth.grants,
    word: (failure) => googleTokenError(failure, options.invalidCodeMessage),
    errorBody: (error) => ({ error: error.error, error_description: error.message }),
    cacheHeaders: { 'cache-control': 'no-cache, no-store, max-age=0, must-revalidate', pragma: 'no-cache' },
    rejectClientIdConflict: true,
    rejectUnrequestedVerifier: true,
    onCode: async (code, client) => {
      const withRefreshToken =
        code.offline && (code.consentPrompted || !oauth.hasRefreshToken(client.clientId, code.account));
      const grant = oauth.grants.createGrant({
        clientId: client.clientId,
        account: code.account,
        scopes: code.scopes,
      });
      const refreshToken = withRefreshToken ? oauth.grants.issueRefreshToken(grant) : undefined;
      const response = await answer(grant, code.nonce);
      return refreshToken ? { ...response, refresh_token: refreshToken } : response;
    },
    onRefresh: (grant) => answer(grant, undefined),
  });

  app.post('/revoke', async (request, reply) => {
    const token = readParams(request.query).token ?? readParams(request.body).token;
    if (!token) return reply.code(400).send({ error: 'invalid_request', error_description: 'Bad Request' });
    if (!oauth.grants.revokeGrant(token)) {
      return reply.code(400).send({ error: 'invalid_token', error_description: 'Token expired or revoked' });
    }
    return {};
  });
}

function googleTokenError(failure: TokenFailure, invalidCodeMessage: string): OAuthError {
  const fail = (status: number, error: string, description: string) =>
    new OAuthError(status, error, description);
  switch (failure.kind) {
    case 'missing_parameter':
      return failure.name === 'grant_type'
        ? fail(400, 'unsupported_grant_type', 'Invalid grant_type: ')
        : fail(400, 'invalid_request', `Missing required parameter: ${failure.name}`);
    case 'unsupported_grant_type':
      return fail(400, 'unsupported_grant_type', `Invalid grant_type: ${failure.grantType}`);
    case 'client_id_missing':
      return fail(400, 'invalid_request', 'Could not determine client ID from request.');
    case 'client_unknown':
      return fail(401, 'invalid_client', 'The OAuth client was not found.');
    case 'client_id_conflict':
    case 'client_secret_missing':
    case 'client_secret_wrong':
      return fail(401, 'invalid_client', 'Unauthorized');
    case 'code_used':
    case 'code_expired':
    case 'code_invalid':
      return fail(400, 'invalid_grant', invalidCodeMessage);
    case 'redirect_uri_mismatch':
      return fail(400, 'redirect_uri_mismatch', 'Bad Request');
    case 'verifier_missing':
      return fail(400, 'invalid_grant', 'Missing code verifier.');
    case 'verifier_mismatch':
      return fail(400, 'invalid_grant', 'Invalid code verifier.');
    case 'verifier_unrequested':
      return fail(400, 'invalid_request', 'code_verifier or verifier is not needed.');
    case 'refresh_token_revoked':
    case 'refresh_token_invalid':
      return fail(400, 'invalid_grant', 'Token has been expired or revoked.');
    case 'refresh_token_other_client':
      return fail(400, 'unauthorized_client', 'Unauthorized');
  }
}
