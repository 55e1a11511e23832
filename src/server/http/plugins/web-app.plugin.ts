import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

type Options = { webRoot: string; contentRoot: string };

const API_PREFIXES = ['/api/', '/auth/', '/content/', '/healthz', '/readyz'];

/**
 * Serves the built single-page app and the markdown documents. Any other GET that asks for HTML gets
 * index.html, so that the browser router handles deep links such as /dashboard.
 */
export const webAppPlugin = fp(async (app: FastifyInstance, { webRoot, contentRoot }: Options) => {
  await app.register(fastifyStatic, {
    root: contentRoot,
    prefix: '/content/',
    decorateReply: false,
    index: false,
    cacheControl: true,
    maxAge: '5m',
  });

  const built = existsSync(`${webRoot}/index.html`);
  if (built) {
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: '/',
      index: false,
      wildcard: false,
      setHeaders: (reply, path) => {
        if (path.includes('/assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage =
      request.method === 'GET' &&
      !API_PREFIXES.some((prefix) => path.startsWith(prefix)) &&
      (request.headers.accept ?? '').includes('text/html');
    if (!wantsPage) {
      return reply
        .status(404)
        .send({ error: 'not_found', message: `No route for ${request.method} ${path}` });
    }
    if (!built) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet. Run `npm run build:web` (npm start does this for you).');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', webRoot);
  });
});
