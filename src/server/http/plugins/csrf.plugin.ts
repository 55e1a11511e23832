import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '#server/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET that changes state (spec'd as a link): checked like a POST, and same-origin only. */
    stateChangingGet?: boolean;
    /** Webhooks from providers carry no browser headers; they verify signatures instead. */
    skipCsrf?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Rejects cross-site state-changing requests: Fetch Metadata first (Sec-Fetch-Site), then the
 * Origin header, then Referer. A request with none of them is not from a browser page and is refused.
 */
export function isSameOriginRequest(request: FastifyRequest, appOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = request.headers.origin;
  if (typeof origin === 'string') return origin === appOrigin;
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    try {
      return new URL(referer).origin === appOrigin;
    } catch {
      return false;
    }
  }
  return false;
}

export const csrfPlugin = fp(async (app: FastifyInstance, options: { appOrigin: string }) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('Vary', 'Sec-Fetch-Site, Origin');
    const config = request.routeOptions.config;
    if (config.skipCsrf) return;
    if (SAFE_METHODS.has(request.method) && !config.stateChangingGet) return;
    if (!isSameOriginRequest(request, options.appOrigin)) {
      request.log.warn(
        { method: request.method, url: request.routeOptions.url },
        'cross-site request refused',
      );
      throw new AppError('cross_site_request', 'This request must come from the app itself.');
    }
  });
});
