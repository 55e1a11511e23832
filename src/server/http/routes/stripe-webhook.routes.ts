import type { FastifyInstance } from 'fastify';
import type { BillingService } from '#server/domain/billing/billing.service.ts';
import { AppError } from '#server/errors.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';

type Options = { billing: BillingService; jobs: JobQueue };

/**
 * Stripe's webhook: the signature is checked on the raw body (so this plugin keeps JSON unparsed), and
 * the verified event is queued for a worker; Stripe gets its answer without waiting for our reads.
 */
export async function stripeWebhookRoutes(app: FastifyInstance, { billing, jobs }: Options) {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post('/api/webhooks/stripe', { config: { skipCsrf: true } }, async (request) => {
    const signature = request.headers['stripe-signature'];
    if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
      throw new AppError('bad_request', 'A signed Stripe event is expected.');
    }
    const event = billing.verifyWebhook(request.body, signature);
    await jobs.requestStripeEvent(event);
    request.log.info({ eventId: event.id, type: event.type }, 'stripe webhook queued');
    return { received: true, outcome: 'queued' };
  });
}
