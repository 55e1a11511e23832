import type { FastifyInstance } from 'fastify';
import type { TokenFailure } from '../shared/oauth/oauth-error.ts';
import { registerTokenEndpoint } from '../shared/oauth/token-endpoint.ts';
import type { MicrosoftClient } from './microsoft.emulator.ts';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  type IdentityStore,
  type MicrosoftGrant,
} from './microsoft.identity-store.ts';
import { AadError, aadErrorBody, missingParameter } from './microsoft.oauth-errors.ts';
import { formatScope, hasOfflineAccess, parseScopes } from './microsoft.scopes.ts';
import { resolveTenant } from './microsoft.tenants.ts';

type TokenContext = { identity: IdentityStore; clients: ReadonlyMap<string, MicrosoftClient> };

/** `/{tenant}/oauth2/v2.0/token`: the code and refresh grants, client_secret_post or _basic, public clients with PKCE. */
export function registerTokenRoutes(app: FastifyInstance, context: TokenContext): void {
  const { identity } = context;
  const tokenResponse = (grant: MicrosoftGrant, scopes: string[]) => ({
    token_type: 'Bearer',
    scope: formatScope(scopes),
    expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    ext_expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    access_token: identity.grants.issueAccessToken(grant, scopes),
    // Every refresh hands out a new refresh token; offline_access is what makes one appear at all.
    ...(hasOfflineAccess(grant.scopes) ? { refresh_token: identity.grants.issueRefreshToken(grant) } : {}),
  });

  registerTokenEndpoint(app, {
    path: '/:tenant/oauth2/v2.0/token',
    clients: context.clients,
    codes: identity.codes,
    grants: identity.grants,
    word: aadTokenError,
    errorBody: aadErrorBody,
    cacheHeaders: { 'cache-control': 'no-store, no-cache', pragma: 'no-cache' },
    rejectClientIdConflict: false,
    rejectUnrequestedVerifier: false,
    checkRequest: (request) => {
      const tenant = (request.params as { tenant: string }).tenant;
      if (!resolveTenant(tenant))
        throw new AadError(400, 'invalid_request', 90002, `Tenant '${tenant}' not found.`);
    },
    onCode: (code, client) => {
      const grant = identity.grants.createGrant({
        clientId: client.clientId,
        userId: code.userId,
        tenantId: code.tenantId,
        scopes: code.scopes,
      });
      return tokenResponse(grant, grant.scopes);
    },
    onRefresh: (grant, client, params) => {
      const requested = params.scope ? parseScopes(params.scope) : grant.scopes;
      const granted = new Set(grant.scopes.map((scope) => scope.toLowerCase()));
      const missing = requested.find((scope) => !granted.has(scope.toLowerCase()));
      if (missing) {
        throw new AadError(
          400,
          'invalid_grant',
          65001,
          `The user or administrator has not consented to use the application with ID '${client.clientId}'. Send an interactive authorization request for this user and resource (scope ${missing}).`,
        );
      }
      return tokenResponse(grant, requested);
    },
  });
}

function aadTokenError(failure: TokenFailure): AadError {
  switch (failure.kind) {
    case 'missing_parameter':
      return missingParameter(failure.name);
    case 'unsupported_grant_type':
      return new AadError(
        400,
        'unsupported_grant_type',
        70003,
        `The app requested an unsupported grant type '${failure.grantType}'.`,
      );
    case 'client_id_missing':
      return missingParameter('client_id');
    case 'client_unknown':
      return new AadError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${failure.clientId}' was not found in the directory.`,
      );
    case 'client_secret_missing':
      return new AadError(
        401,
        'invalid_client',
        7000218,
        "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
      );
    // Not raised here: Basic credentials win over the body's (rejectClientIdConflict is off).
    case 'client_id_conflict':
    case 'client_secret_wrong':
      return new AadError(
        401,
        'invalid_client',
        7000215,
        'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
      );
    case 'code_used':
      return new AadError(
        400,
        'invalid_grant',
        54005,
        'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
      );
    case 'code_expired':
      return new AadError(
        400,
        'invalid_grant',
        70008,
        'The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.',
      );
    case 'code_invalid':
      return new AadError(
        400,
        'invalid_grant',
        70000,
        "The provided value for the 'code' parameter is not valid.",
      );
    case 'redirect_uri_mismatch':
      return new AadError(
        400,
        'invalid_grant',
        500112,
        `The reply address '${failure.given}' does not match the reply address '${failure.expected}' provided when requesting Authorization code.`,
      );
    // An unrequested verifier is not raised here: Microsoft ignores it (rejectUnrequestedVerifier is off).
    case 'verifier_missing':
    case 'verifier_unrequested':
      return missingParameter('code_verifier');
    case 'verifier_mismatch':
      return new AadError(
        400,
        'invalid_grant',
        501481,
        'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
      );
    case 'refresh_token_revoked':
      return new AadError(
        400,
        'invalid_grant',
        50173,
        'The provided grant has expired due to it being revoked, a fresh auth token is needed. The user might have changed or reset their password.',
      );
    case 'refresh_token_invalid':
      return new AadError(400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.');
    case 'refresh_token_other_client':
      return new AadError(400, 'invalid_grant', 70000, 'The refresh token was issued to a different client.');
  }
}
