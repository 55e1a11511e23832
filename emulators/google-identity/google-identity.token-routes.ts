import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, readParams } from '../shared/params.ts';
import { pkceMatches } from '../shared/pkce.ts';
import { formatGrantedScope, profileClaims } from './google-identity.claims.ts';
import type { GoogleClient } from './google-identity.emulator.ts';
import { accessTokenHash, type IdTokenSigner } from './google-identity.id-token.ts';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  type GoogleIdentityStore,
  type Grant,
} from './google-identity.store.ts';

const ID_TOKEN_LIFETIME_SECONDS = 3600;

type TokenContext = {
  store: GoogleIdentityStore;
  clients: ReadonlyMap<string, GoogleClient>;
  signer: IdTokenSigner;
  getOrigin: () => string;
};

class OAuthError extends Error {
  readonly status: number;
  readonly error: string;

  constructor(status: number, error: string, description: string) {
    super(description);
    this.status = status;
    this.error = error;
  }
}

export function registerTokenRoutes(app: FastifyInstance, context: TokenContext): void {
  const { store } = context;

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
          ? await exchangeCode(params, client, context)
          : await refresh(params, client, context);
      return noStore(reply).send(body);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      return noStore(reply).code(error.status).send({ error: error.error, error_description: error.message });
    }
  });

  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request.headers.authorization);
    const grant = token ? store.grantForAccessToken(token) : undefined;
    const user = grant ? store.user(grant.sub) : undefined;
    if (!grant || !user) {
      return reply
        .code(401)
        .header('www-authenticate', `Bearer realm="${context.getOrigin()}/", error="invalid_token"`)
        .send({ error: 'invalid_request', error_description: 'Invalid Credentials' });
    }
    return { sub: user.sub, ...profileClaims(user, grant.scopes) };
  };
  app.get('/v1/userinfo', userinfo);
  app.post('/v1/userinfo', userinfo);

  app.post('/revoke', async (request, reply) => {
    const token = readParams(request.query).token ?? readParams(request.body).token;
    if (!token) return reply.code(400).send({ error: 'invalid_request', error_description: 'Bad Request' });
    if (!store.revoke(token)) {
      return reply.code(400).send({ error: 'invalid_token', error_description: 'Token expired or revoked' });
    }
    return {};
  });
}

async function exchangeCode(params: Record<string, string>, client: GoogleClient, context: TokenContext) {
  const { store } = context;
  if (!params.code) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: code');
  if (!params.redirect_uri) {
    throw new OAuthError(400, 'invalid_request', 'Missing required parameter: redirect_uri');
  }
  const code = store.takeCode(params.code);
  if (!code || code.clientId !== client.clientId) throw new OAuthError(400, 'invalid_grant', 'Bad Request');
  if (code.redirectUri !== params.redirect_uri) {
    throw new OAuthError(400, 'redirect_uri_mismatch', 'Bad Request');
  }
  if (code.codeChallenge && code.codeChallengeMethod) {
    if (!params.code_verifier) throw new OAuthError(400, 'invalid_grant', 'Missing code verifier.');
    if (!pkceMatches(code.codeChallenge, code.codeChallengeMethod, params.code_verifier)) {
      throw new OAuthError(400, 'invalid_grant', 'Invalid code verifier.');
    }
  } else if (params.code_verifier) {
    throw new OAuthError(400, 'invalid_request', 'code_verifier or verifier is not needed.');
  }
  // Google hands out a refresh token once per user and client, unless the user was asked to consent again.
  const withRefreshToken =
    code.offline && (code.consentPrompted || !store.hasRefreshToken(client.clientId, code.sub));
  const grant = store.createGrant(client.clientId, code.sub, code.scopes, withRefreshToken);
  const response = await tokenResponse(grant, code.nonce, context);
  return grant.refreshToken ? { ...response, refresh_token: grant.refreshToken } : response;
}

async function refresh(params: Record<string, string>, client: GoogleClient, context: TokenContext) {
  if (!params.refresh_token) {
    throw new OAuthError(400, 'invalid_request', 'Missing required parameter: refresh_token');
  }
  const grant = context.store.grantForRefreshToken(params.refresh_token);
  if (!grant) throw new OAuthError(400, 'invalid_grant', 'Token has been expired or revoked.');
  if (grant.clientId !== client.clientId) throw new OAuthError(400, 'unauthorized_client', 'Unauthorized');
  return tokenResponse(grant, undefined, context);
}

async function tokenResponse(grant: Grant, nonce: string | undefined, context: TokenContext) {
  const accessToken = context.store.issueAccessToken(grant);
  const response: Record<string, unknown> = {
    access_token: accessToken,
    expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    scope: formatGrantedScope(grant.scopes),
    token_type: 'Bearer',
  };
  const user = context.store.user(grant.sub);
  if (grant.scopes.includes('openid') && user) {
    const now = Math.floor(Date.now() / 1000);
    response.id_token = await context.signer.sign({
      iss: context.getOrigin(),
      azp: grant.clientId,
      aud: grant.clientId,
      sub: user.sub,
      ...profileClaims(user, grant.scopes),
      at_hash: accessTokenHash(accessToken),
      ...(nonce ? { nonce } : {}),
      iat: now,
      exp: now + ID_TOKEN_LIFETIME_SECONDS,
    });
  }
  return response;
}

/** client_secret_basic (form-encoded id and secret in a Basic header) or client_secret_post. */
function authenticateClient(
  request: FastifyRequest,
  params: Record<string, string>,
  clients: ReadonlyMap<string, GoogleClient>,
): GoogleClient {
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

function parseBasicCredentials(
  header: string | undefined,
): { clientId: string; clientSecret: string } | undefined {
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
