import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * A plain-HTTP front for the Microsoft emulator's consent page. The Graph SDK needs HTTPS (so the
 * emulator has a local CA), but a visitor's browser does not trust that CA and would warn; only the
 * browser-facing authorize page goes through here. This process trusts the CA, so it relays over HTTPS.
 */
export async function createMicrosoftConsentFront(options: {
  target: () => string;
}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(formbody);

  const relay = async (method: 'GET' | 'POST', url: string, body: string | undefined) => {
    const response = await fetch(`${options.target()}${url}`, {
      method,
      redirect: 'manual',
      headers: body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  app.route({
    method: ['GET', 'POST'],
    url: '/:tenant/oauth2/v2.0/authorize',
    handler: async (request, reply) => {
      const form =
        request.method === 'POST' ? new URLSearchParams(request.body as Record<string, string>) : null;
      const answer = await relay(request.method === 'POST' ? 'POST' : 'GET', request.url, form?.toString());
      const location = answer.headers.get('location');
      if (location) reply.header('location', location);
      return reply
        .code(answer.status)
        .type(answer.headers.get('content-type') ?? 'text/html; charset=utf-8')
        .send(answer.text);
    },
  });
  return app;
}
