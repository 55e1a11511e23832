import type { FastifyInstance } from 'fastify';
import { registerGoogleConsent } from '../shared/oauth/google-consent.ts';
import type { GoogleOAuth } from '../shared/oauth/google-oauth.ts';
import { formatGrantedScope, parseScopes } from './google-identity.claims.ts';
import type { GoogleClient } from './google-identity.emulator.ts';
import type { GoogleIdentityStore } from './google-identity.store.ts';

/** Sign in with Google: the account form for the `openid` scope, then a redirect with a code. */
export function registerAuthorizeRoutes(
  app: FastifyInstance,
  context: { store: GoogleIdentityStore; oauth: GoogleOAuth; clients: ReadonlyMap<string, GoogleClient> },
): void {
  registerGoogleConsent(app, {
    oauth: context.oauth,
    clients: context.clients,
    title: 'Sign in with Google (sandbox)',
    alsoCarried: ['nonce'],
    readScopes: (scope) => {
      const scopes = parseScopes(scope);
      return scopes.includes('openid') ? { scopes } : { invalid: 'This emulator requires the openid scope.' };
    },
    formatScope: formatGrantedScope,
    subtitle: ({ client }) => `to continue to ${client.name ?? client.clientId}`,
    account: (email, name) => context.store.upsertUser(email, name || email.split('@')[0] || email).sub,
  });
}
