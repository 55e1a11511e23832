import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { EmulatorFactoryOptions } from '../shared/emulator-options.ts';
import { GoogleOAuth } from '../shared/oauth/google-oauth.ts';
import { countRequests } from '../shared/request-counter.ts';
import { registerAuthorizeRoutes } from './google-identity.authorize-routes.ts';
import { discoveryDocument } from './google-identity.discovery.ts';
import { createIdTokenSigner } from './google-identity.id-token.ts';
import { GoogleIdentityStore } from './google-identity.store.ts';
import { registerTokenRoutes } from './google-identity.token-routes.ts';

export type GoogleClient = {
  clientId: string;
  clientSecret: string;
  /** Shown on the sign-in page ("to continue to …"); defaults to the client id. */
  name?: string;
};

const ACCESS_TOKEN_LIFETIME_SECONDS = 3599;

export type GoogleIdentityEmulatorOptions = EmulatorFactoryOptions & {
  clients: readonly GoogleClient[];
};

/** A stateful Google OpenID Connect provider (authorization code flow). Not listening yet. */
export async function createGoogleIdentityEmulator(
  options: GoogleIdentityEmulatorOptions,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  await app.register(formbody);
  const store = new GoogleIdentityStore();
  const oauth = new GoogleOAuth(ACCESS_TOKEN_LIFETIME_SECONDS);
  const signer = await createIdTokenSigner();
  const clients = new Map(options.clients.map((client) => [client.clientId, client]));
  const counter = countRequests(app);

  app.get('/.well-known/openid-configuration', async () => discoveryDocument(options.getOrigin()));
  app.get('/oauth2/v3/certs', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(signer.jwks),
  );
  registerAuthorizeRoutes(app, { store, oauth, clients });
  registerTokenRoutes(app, { store, oauth, clients, signer, getOrigin: options.getOrigin });

  app.get('/_emulator/state', async () => ({
    issuer: options.getOrigin(),
    users: store.users(),
    ...oauth.snapshot('sub', { showExpired: false }),
    requests: counter.counts(),
  }));
  app.post('/_emulator/reset', async () => {
    store.reset();
    oauth.reset();
    counter.reset();
    return { reset: true };
  });

  return app;
}
