import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type GoogleOAuth, registerGoogleTokenRoutes } from '../shared/oauth/google-oauth.ts';
import { bearerToken } from '../shared/params.ts';
import { formatGrantedScope, profileClaims } from './google-identity.claims.ts';
import type { GoogleClient } from './google-identity.emulator.ts';
import { accessTokenHash, type IdTokenSigner } from './google-identity.id-token.ts';
import type { GoogleIdentityStore } from './google-identity.store.ts';

const ID_TOKEN_LIFETIME_SECONDS = 3600;

type TokenContext = {
  store: GoogleIdentityStore;
  oauth: GoogleOAuth;
  clients: ReadonlyMap<string, GoogleClient>;
  signer: IdTokenSigner;
  getOrigin: () => string;
};

/** `/token` with an ID token for the `openid` scope, `/revoke` and `/v1/userinfo`. */
export function registerTokenRoutes(app: FastifyInstance, context: TokenContext): void {
  const { store, oauth } = context;

  registerGoogleTokenRoutes(app, {
    oauth,
    clients: context.clients,
    invalidCodeMessage: 'Bad Request',
    formatScope: formatGrantedScope,
    idToken: async (grant, accessToken, nonce) => {
      const user = store.user(grant.account);
      if (!grant.scopes.includes('openid') || !user) return undefined;
      const now = Math.floor(Date.now() / 1000);
      return context.signer.sign({
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
    },
  });

  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request.headers.authorization);
    const lookup = token ? oauth.grants.accessToken(token) : undefined;
    const grant = lookup?.status === 'valid' ? lookup.grant : undefined;
    const user = grant ? store.user(grant.account) : undefined;
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
}
