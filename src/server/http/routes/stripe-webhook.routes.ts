import type { FastifyInstance } from 'fastify';
import type { BillingService } from '#server/domain/billing/billing.service.ts';
import { AppError } from '#server/errors.ts';

/** Stripe's webhook: the signature is checked on the raw body, so this plugin keeps JSON unparsed. */
export async function stripeWebhookRoutes(app: FastifyInstance, { billing }: { billing: BillingService }) {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post('/api/webhooks/stripe', { config: { skipCsrf: true } }, async (request) => {
    const signature = request.headers['stripe-signature'];
    if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
      throw new AppError('bad_request', 'A signed Stripe event is expected.');
    }
    const outcome = await billing.handleWebhook(request.body, signature);
    request.log.info({ outcome }, 'stripe webhook');
    return { received: true, outcome };
  });
}
