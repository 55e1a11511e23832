import type { FastifyInstance } from 'fastify';

export type RequestCounter = {
  counts(): Record<string, number>;
  reset(): void;
};

/**
 * Counts requests per matched route, keyed like `GET /token`. `normalize` maps the route pattern
 * to the key, so that routes registered under several prefixes share one counter.
 */
export function countRequests(
  app: FastifyInstance,
  normalize: (routeUrl: string) => string = (url) => url,
): RequestCounter {
  let counts = new Map<string, number>();
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (url === undefined) return;
    const key = `${request.method} ${normalize(url)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  return {
    counts: () => Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b))),
    reset: () => {
      counts = new Map();
    },
  };
}
