import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type GoogleOAuth, registerGoogleTokenRoutes } from '../shared/oauth/google-oauth.ts';
import { bearerToken, readParams } from '../shared/params.ts';
import type { GoogleCalendarClient } from './google-calendar.emulator.ts';
import { formatScopes } from './google-calendar.scopes.ts';

type TokenContext = { oauth: GoogleOAuth; clients: ReadonlyMap<string, GoogleCalendarClient> };

/** oauth2.googleapis.com: `/token` (code and refresh grants), `/revoke`, `/tokeninfo`. */
export function registerTokenRoutes(app: FastifyInstance, context: TokenContext): void {
  const { oauth } = context;
  registerGoogleTokenRoutes(app, {
    oauth,
    clients: context.clients,
    invalidCodeMessage: 'Malformed auth code.',
    formatScope: formatScopes,
  });

  const tokenInfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = { ...readParams(request.query), ...readParams(request.body) };
    const token = params.access_token ?? bearerToken(request.headers.authorization);
    const lookup = token ? oauth.grants.accessToken(token) : undefined;
    if (lookup?.status !== 'valid') {
      return reply.code(400).send({ error: 'invalid_token', error_description: 'Invalid Value' });
    }
    const { grant, expiresAt } = lookup;
    const expiresIn = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
    return {
      azp: grant.clientId,
      aud: grant.clientId,
      scope: formatScopes(grant.scopes),
      exp: String(Math.floor(expiresAt / 1000)),
      expires_in: String(expiresIn),
      ...(grant.scopes.includes('email') ? { email: grant.account, email_verified: 'true' } : {}),
      access_type: oauth.grants.hasRefreshToken(grant) ? 'offline' : 'online',
    };
  };
  app.get('/tokeninfo', tokenInfo);
  app.post('/tokeninfo', tokenInfo);
}
