import type { FastifyInstance } from 'fastify';

/**
 * Parses JSON bodies, taking an empty one as no body: SDKs send `Content-Type: application/json` on
 * body-less POSTs (Google's revoke and stop, Todoist's close and reopen), which Fastify's own parser
 * rejects, and the real services accept. A malformed body fails with `invalidJson()`.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance, invalidJson: () => Error): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalidJson(), undefined);
    }
  });
}
