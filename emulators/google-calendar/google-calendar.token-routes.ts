import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, readParams } from '../shared/params.ts';
import { pkceMatches } from '../shared/pkce.ts';
import type { GoogleCalendarClient } from './google-calendar.emulator.ts';
import type { Grant, OAuthStore } from './google-calendar.oauth-store.ts';
import { formatScopes } from './google-calendar.scopes.ts';

type TokenContext = { oauth: OAuthStore; clients: ReadonlyMap<string, GoogleCalendarClient> };

class OAuthError extends Error {
  readonly status: number;
  readonly error: string;

  constructor(status: number, error: string, description: string) {
    super(description);
    this.status = status;
    this.error = error;
  }
}

/** oauth2.googleapis.com: `/token` (code and refresh grants), `/revoke`, `/tokeninfo`. */
export function registerTokenRoutes(app: FastifyInstance, context: TokenContext): void {
  const { oauth } = context;

  app.post('/token', async (request, reply) => {
    const params = readParams(request.body);
    try {
      const grantType = params.grant_type ?? '';
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw new OAuthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
      }
      const client = authenticateClient(request, params, context.clients);
      const body =
        grantType === 'authorization_code'
          ? exchangeCode(params, client, oauth)
          : refresh(params, client, oauth);
      return noStore(reply).send(body);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      return noStore(reply).code(error.status).send({ error: error.error, error_description: error.message });
    }
  });

  app.post('/revoke', async (request, reply) => {
    const token = readParams(request.query).token ?? readParams(request.body).token;
    if (!token) return reply.code(400).send({ error: 'invalid_request', error_description: 'Bad Request' });
    if (!oauth.revoke(token)) {
      return reply.code(400).send({ error: 'invalid_token', error_description: 'Token expired or revoked' });
    }
    return {};
  });

  const tokenInfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = { ...readParams(request.query), ...readParams(request.body) };
    const token = params.access_token ?? bearerToken(request.headers.authorization);
    const grant = token ? oauth.grantForAccessToken(token) : undefined;
    if (!grant) return reply.code(400).send({ error: 'invalid_token', error_description: 'Invalid Value' });
    const expiresIn = Math.max(0, Math.floor((grant.accessTokenExpiresAt - Date.now()) / 1000));
    return {
      azp: grant.clientId,
      aud: grant.clientId,
      scope: formatScopes(grant.scopes),
      exp: String(Math.floor(grant.accessTokenExpiresAt / 1000)),
      expires_in: String(expiresIn),
      ...(grant.scopes.includes('email') ? { email: grant.email, email_verified: 'true' } : {}),
      access_type: grant.refreshToken ? 'offline' : 'online',
    };
  };
  app.get('/tokeninfo', tokenInfo);
  app.post('/tokeninfo', tokenInfo);
}

function exchangeCode(params: Record<string, string>, client: GoogleCalendarClient, oauth: OAuthStore) {
  if (!params.code) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: code');
  if (!params.redirect_uri)
    throw new OAuthError(400, 'invalid_request', 'Missing required parameter: redirect_uri');
  const code = oauth.takeCode(params.code);
  if (!code || code.clientId !== client.clientId)
    throw new OAuthError(400, 'invalid_grant', 'Malformed auth code.');
  if (code.redirectUri !== params.redirect_uri)
    throw new OAuthError(400, 'redirect_uri_mismatch', 'Bad Request');
  if (code.codeChallenge && code.codeChallengeMethod) {
    if (!params.code_verifier) throw new OAuthError(400, 'invalid_grant', 'Missing code verifier.');
    if (!pkceMatches(code.codeChallenge, code.codeChallengeMethod, params.code_verifier)) {
      throw new OAuthError(400, 'invalid_grant', 'Invalid code verifier.');
    }
  } else if (params.code_verifier) {
    throw new OAuthError(400, 'invalid_request', 'code_verifier or verifier is not needed.');
  }
  // Google hands out a refresh token once per account and client, unless consent was asked for again.
  const withRefreshToken =
    code.offline && (code.consentPrompted || !oauth.hasRefreshToken(client.clientId, code.email));
  const grant = oauth.createGrant(client.clientId, code.email, code.scopes, withRefreshToken);
  const response = tokenResponse(grant, oauth);
  return grant.refreshToken ? { ...response, refresh_token: grant.refreshToken } : response;
}

function refresh(params: Record<string, string>, client: GoogleCalendarClient, oauth: OAuthStore) {
  if (!params.refresh_token)
    throw new OAuthError(400, 'invalid_request', 'Missing required parameter: refresh_token');
  const grant = oauth.grantForRefreshToken(params.refresh_token);
  if (!grant) throw new OAuthError(400, 'invalid_grant', 'Token has been expired or revoked.');
  if (grant.clientId !== client.clientId) throw new OAuthError(400, 'unauthorized_client', 'Unauthorized');
  return tokenResponse(grant, oauth);
}

function tokenResponse(grant: Grant, oauth: OAuthStore) {
  return {
    access_token: oauth.issueAccessToken(grant),
    expires_in: oauth.accessTokenLifetimeSeconds,
    scope: formatScopes(grant.scopes),
    token_type: 'Bearer',
  };
}

/** client_secret_basic (form-encoded id and secret in a Basic header) or client_secret_post. */
function authenticateClient(
  request: FastifyRequest,
  params: Record<string, string>,
  clients: ReadonlyMap<string, GoogleCalendarClient>,
): GoogleCalendarClient {
  const basic = parseBasicCredentials(request.headers.authorization);
  if (basic && params.client_id && params.client_id !== basic.clientId) {
    throw new OAuthError(401, 'invalid_client', 'Unauthorized');
  }
  const clientId = basic?.clientId ?? params.client_id;
  const clientSecret = basic?.clientSecret ?? params.client_secret;
  if (!clientId) throw new OAuthError(400, 'invalid_request', 'Could not determine client ID from request.');
  const client = clients.get(clientId);
  if (!client) throw new OAuthError(401, 'invalid_client', 'The OAuth client was not found.');
  if (clientSecret !== client.clientSecret) throw new OAuthError(401, 'invalid_client', 'Unauthorized');
  return client;
}

function parseBasicCredentials(header: string | undefined) {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return undefined;
  const formDecode = (value: string) => {
    try {
      return decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      return value;
    }
  };
  return {
    clientId: formDecode(decoded.slice(0, separator)),
    clientSecret: formDecode(decoded.slice(separator + 1)),
  };
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'no-cache, no-store, max-age=0, must-revalidate')
    .header('pragma', 'no-cache');
}
