import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type ApiDeps, eventRequest, expanded } from './stripe.api.ts';
import { mergeMetadata } from './stripe.customer-object.ts';
import { noSuch } from './stripe.errors.ts';
import { paginate } from './stripe.list.ts';
import { buildPaymentIntent } from './stripe.payment-intent-object.ts';
import { listParams, parseParams, paymentIntentCreateParams, retrieveParams } from './stripe.schemas.ts';

const invoiceListParams = z.object({
  ...listParams,
  customer: z.string().optional(),
  subscription: z.string().optional(),
  status: z.enum(['draft', 'open', 'paid', 'uncollectible', 'void']).optional(),
});

/** Payment intents (with the client secret Stripe.js confirms) and the invoices subscriptions create. */
export function registerPaymentRoutes(scope: FastifyInstance, deps: ApiDeps): void {
  const { store, events, clock } = deps;

  scope.post('/payment_intents', async (request, reply) => {
    const params = parseParams(paymentIntentCreateParams, request.body);
    if (params.customer && !store.customers.has(params.customer)) {
      throw noSuch('customer', params.customer, 'customer');
    }
    const intent = buildPaymentIntent({
      amount: params.amount,
      currency: params.currency,
      created: clock.now(),
      customer: params.customer ?? null,
      description: params.description ?? null,
      metadata: mergeMetadata({}, params.metadata),
      receiptEmail: params.receipt_email ?? null,
      automaticPaymentMethods:
        params.automatic_payment_methods ?? (params.payment_method_types ? null : { enabled: true }),
      paymentMethodTypes: params.payment_method_types,
      setupFutureUsage: params.setup_future_usage ?? null,
    });
    store.paymentIntents.set(intent.id, intent);
    events.during(eventRequest(request, reply), () => events.emit('payment_intent.created', intent));
    return expanded(deps, intent, params.expand);
  });

  scope.get('/payment_intents/:id', async (request) => {
    const { id } = request.params as { id: string };
    const params = parseParams(retrieveParams, request.query);
    const intent = store.paymentIntents.get(id);
    if (!intent) throw noSuch('payment_intent', id);
    return expanded(deps, intent, params.expand);
  });

  scope.get('/invoices/:id', async (request) => {
    const { id } = request.params as { id: string };
    const params = parseParams(retrieveParams, request.query);
    const invoice = store.invoices.get(id);
    if (!invoice) throw noSuch('invoice', id);
    return expanded(deps, invoice, params.expand);
  });

  scope.get('/invoices', async (request) => {
    const params = parseParams(invoiceListParams, request.query);
    const invoices = [...store.invoices.values()].filter(
      (invoice) =>
        (params.customer === undefined || invoice.customer === params.customer) &&
        (params.subscription === undefined ||
          invoice.parent?.subscription_details?.subscription === params.subscription) &&
        (params.status === undefined || invoice.status === params.status),
    );
    return expanded(deps, paginate('/v1/invoices', invoices, params), params.expand);
  });
}
