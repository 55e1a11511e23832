import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readParams } from '../shared/params.ts';
import { pkceMatches } from '../shared/pkce.ts';
import type { MicrosoftClient } from './microsoft.emulator.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS, type Grant, type IdentityStore } from './microsoft.identity-store.ts';
import { AadError, aadErrorBody, missingParameter } from './microsoft.oauth-errors.ts';
import { formatScope, hasOfflineAccess, parseScopes } from './microsoft.scopes.ts';
import { resolveTenant } from './microsoft.tenants.ts';

type TokenContext = { identity: IdentityStore; clients: ReadonlyMap<string, MicrosoftClient> };

export function registerTokenRoutes(app: FastifyInstance, context: TokenContext): void {
  app.post('/:tenant/oauth2/v2.0/token', async (request, reply) => {
    const params = readParams(request.body);
    reply.header('cache-control', 'no-store, no-cache').header('pragma', 'no-cache');
    try {
      const tenant = (request.params as { tenant: string }).tenant;
      if (!resolveTenant(tenant))
        throw new AadError(400, 'invalid_request', 90002, `Tenant '${tenant}' not found.`);
      const grantType = params.grant_type;
      if (!grantType) throw missingParameter('grant_type');
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw new AadError(
          400,
          'unsupported_grant_type',
          70003,
          `The app requested an unsupported grant type '${grantType}'.`,
        );
      }
      const client = authenticateClient(request, params, context.clients);
      return grantType === 'authorization_code'
        ? redeemCode(params, client, context.identity)
        : refresh(params, client, context.identity);
    } catch (error) {
      if (!(error instanceof AadError)) throw error;
      return reply.code(error.status).send(aadErrorBody(error));
    }
  });
}

function redeemCode(params: Record<string, string>, client: MicrosoftClient, identity: IdentityStore) {
  if (!params.code) throw missingParameter('code');
  if (!params.redirect_uri) throw missingParameter('redirect_uri');
  const code = identity.takeCode(params.code);
  if (code === 'redeemed') {
    throw new AadError(
      400,
      'invalid_grant',
      54005,
      'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
    );
  }
  if (code === 'expired') {
    throw new AadError(
      400,
      'invalid_grant',
      70008,
      'The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.',
    );
  }
  if (!code || code.clientId !== client.clientId) {
    throw new AadError(
      400,
      'invalid_grant',
      70000,
      "The provided value for the 'code' parameter is not valid.",
    );
  }
  if (code.redirectUri !== params.redirect_uri) {
    throw new AadError(
      400,
      'invalid_grant',
      500112,
      `The reply address '${params.redirect_uri}' does not match the reply address '${code.redirectUri}' provided when requesting Authorization code.`,
    );
  }
  if (code.codeChallenge && code.codeChallengeMethod) {
    if (!params.code_verifier) throw missingParameter('code_verifier');
    if (!pkceMatches(code.codeChallenge, code.codeChallengeMethod, params.code_verifier)) {
      throw new AadError(
        400,
        'invalid_grant',
        501481,
        'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
      );
    }
  }
  const grant = identity.createGrant({
    clientId: client.clientId,
    userId: code.userId,
    tenantId: code.tenantId,
    scopes: code.scopes,
  });
  return tokenResponse(identity, grant, grant.scopes);
}

function refresh(params: Record<string, string>, client: MicrosoftClient, identity: IdentityStore) {
  if (!params.refresh_token) throw missingParameter('refresh_token');
  const grant = identity.grantForRefreshToken(params.refresh_token);
  if (grant === 'revoked') {
    throw new AadError(
      400,
      'invalid_grant',
      50173,
      'The provided grant has expired due to it being revoked, a fresh auth token is needed. The user might have changed or reset their password.',
    );
  }
  if (!grant)
    throw new AadError(400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.');
  if (grant.clientId !== client.clientId) {
    throw new AadError(400, 'invalid_grant', 70000, 'The refresh token was issued to a different client.');
  }
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
  return tokenResponse(identity, grant, requested);
}

function tokenResponse(identity: IdentityStore, grant: Grant, scopes: string[]) {
  return {
    token_type: 'Bearer',
    scope: formatScope(scopes),
    expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    ext_expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    access_token: identity.issueAccessToken(grant, scopes),
    // Every refresh hands out a new refresh token; offline_access is what makes one appear at all.
    ...(hasOfflineAccess(grant.scopes) ? { refresh_token: identity.issueRefreshToken(grant) } : {}),
  };
}

/** client_secret_post or client_secret_basic; a client without a secret is a public client (PKCE). */
function authenticateClient(
  request: FastifyRequest,
  params: Record<string, string>,
  clients: ReadonlyMap<string, MicrosoftClient>,
): MicrosoftClient {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  let clientId = params.client_id;
  let secret = params.client_secret;
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    clientId = formDecode(decoded.slice(0, separator));
    secret = formDecode(decoded.slice(separator + 1));
  }
  if (!clientId) throw missingParameter('client_id');
  const client = clients.get(clientId);
  if (!client) {
    throw new AadError(
      400,
      'unauthorized_client',
      700016,
      `Application with identifier '${clientId}' was not found in the directory.`,
    );
  }
  if (client.clientSecret === undefined) return client;
  if (!secret) {
    throw new AadError(
      401,
      'invalid_client',
      7000218,
      "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
    );
  }
  if (secret !== client.clientSecret) {
    throw new AadError(
      401,
      'invalid_client',
      7000215,
      'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
    );
  }
  return client;
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
