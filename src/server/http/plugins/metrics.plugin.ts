import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '#server/metrics/metrics.ts';
import { SYNC_PATHS } from '#shared/api/sync.schema.ts';

/** The providers' notification routes, by the source the webhook metrics name. */
const WEBHOOK_SOURCES = new Map<string, string>([
  [SYNC_PATHS.todoistWebhook, 'todoist'],
  [SYNC_PATHS.googleWebhook, 'google'],
  [SYNC_PATHS.microsoftWebhook, 'microsoft'],
  [SYNC_PATHS.microsoftLifecycle, 'microsoft-lifecycle'],
  ['/api/webhooks/stripe', 'stripe'],
]);

type Options = {
  metrics: Metrics;
  /**
   * `/metrics` on the app's own port: in sandbox mode only, open, so a newcomer can look. Elsewhere it
   * is served on METRICS_PORT (docs/decisions/015-metrics.md) and here answers 404.
   */
  serveOnAppPort: boolean;
};

/**
 * Counts every answer by route pattern (never the raw URL, which may carry ids) and times the
 * acknowledgement of providers' notifications, from the request's arrival to its answer.
 */
export const metricsPlugin = fp(async (app: FastifyInstance, { metrics, serveOnAppPort }: Options) => {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpResponse(request.method, route, reply.statusCode);
    const source = WEBHOOK_SOURCES.get(route);
    if (source) metrics.webhookAcknowledged(source, reply.elapsedTime / 1000);
  });

  // Prometheus's text format, not part of the browser's contract (like /healthz).
  app.get('/metrics', async (_request, reply) => {
    if (!serveOnAppPort) {
      return reply.code(404).send({ error: 'not_found', message: 'No route for GET /metrics' });
    }
    const { contentType, body } = await metrics.render();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
});
