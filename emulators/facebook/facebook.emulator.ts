import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { EmulatorFactoryOptions } from '../shared/emulator-options.ts';
import { countRequests } from '../shared/request-counter.ts';
import { registerDialogRoutes } from './facebook.dialog-routes.ts';
import { graphError } from './facebook.errors.ts';
import { registerGraphRoutes } from './facebook.graph-routes.ts';
import { FacebookStore } from './facebook.store.ts';

export type FacebookApp = {
  appId: string;
  appSecret: string;
  /** Shown on the login dialog ("to continue to …"); defaults to the app id. */
  name?: string;
};

export type FacebookEmulatorOptions = EmulatorFactoryOptions & {
  apps: readonly FacebookApp[];
};

const VERSION_PREFIX = '/:version';

/**
 * Facebook Login: the OAuth dialog (www.facebook.com) and the Graph endpoints it needs
 * (graph.facebook.com) on one origin, with or without a `/vNN.N` version prefix. Not listening yet.
 */
export async function createFacebookEmulator(options: FacebookEmulatorOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  await app.register(formbody);
  const store = new FacebookStore();
  const apps = new Map(options.apps.map((fbApp) => [fbApp.appId, fbApp]));
  const counter = countRequests(app, (url) =>
    url.startsWith(`${VERSION_PREFIX}/`) ? url.slice(VERSION_PREFIX.length) : url,
  );

  const routes = async (scope: FastifyInstance) => {
    registerDialogRoutes(scope, store, apps);
    registerGraphRoutes(scope, store, apps);
  };
  await app.register(routes);
  await app.register(
    async (versioned) => {
      versioned.addHook('onRequest', async (request, reply) => {
        const { version } = request.params as { version?: string };
        if (!/^v\d+\.\d+$/.test(version ?? '')) {
          return reply
            .code(400)
            .send(graphError({ code: 2500, message: `Unknown path components: /${version}` }));
        }
      });
      await routes(versioned);
    },
    { prefix: VERSION_PREFIX },
  );

  app.get('/_emulator/state', async () => ({ ...store.snapshot(), requests: counter.counts() }));
  app.post('/_emulator/reset', async () => {
    store.reset();
    counter.reset();
    return { reset: true };
  });

  return app;
}
