import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { z } from 'zod';
import { type ApiDeps, eventRequest, expanded } from './stripe.api.ts';
import { expireSession } from './stripe.checkout-flow.ts';
import { buildCheckoutSession, buildLineItems } from './stripe.checkout-object.ts';
import { mergeMetadata } from './stripe.customer-object.ts';
import { invalidRequest, missingParam, noSuch } from './stripe.errors.ts';
import { paginate } from './stripe.list.ts';
import { checkoutSessionCreateParams, listParams, parseParams, retrieveParams } from './stripe.schemas.ts';

const sessionListParams = z.object({
  ...listParams,
  customer: z.string().optional(),
  subscription: z.string().optional(),
  status: z.enum(['open', 'complete', 'expired']).optional(),
});

const DAY = 86_400;

export function registerCheckoutRoutes(scope: FastifyInstance, deps: ApiDeps): void {
  const { store, clock, events } = deps;

  const sessionOf = (id: string) => {
    const session = store.checkoutSessions.get(id);
    if (!session) throw noSuch('checkout.session', id);
    return session;
  };
  const lineItemsOf = (session: Stripe.Checkout.Session) => {
    const plan = store.sessionPlans.get(session.id);
    const price = plan ? store.prices.get(plan.price) : undefined;
    if (!plan || !price) return { object: 'list' as const, data: [], has_more: false, url: '' };
    const product = store.products.get(price.product as string);
    return buildLineItems(session.id, price, plan.quantity, product?.name ?? '');
  };
  /** `line_items` is includable: present only when expanded. */
  const present = (session: Stripe.Checkout.Session, paths: string[] | undefined) => {
    const withItems = paths?.includes('line_items')
      ? { ...session, line_items: lineItemsOf(session) }
      : session;
    return expanded(
      deps,
      withItems,
      paths?.filter((path) => path !== 'line_items'),
    );
  };

  scope.post('/checkout/sessions', async (request) => {
    const params = parseParams(checkoutSessionCreateParams, request.body);
    if (params.mode !== 'subscription') {
      throw invalidRequest('The sandbox supports only `mode=subscription` Checkout Sessions.', 'mode');
    }
    if (params.customer && params.customer_email) {
      throw invalidRequest(
        'You may only specify one of these parameters: customer, customer_email.',
        'customer',
        'parameters_exclusive',
      );
    }
    const customer = params.customer ? store.customers.get(params.customer) : undefined;
    if (params.customer && !customer) throw noSuch('customer', params.customer, 'customer');
    const lineItem = params.line_items?.[0];
    if (!lineItem) throw missingParam('line_items');
    const price = store.prices.get(lineItem.price);
    if (!price) throw noSuch('price', lineItem.price, 'line_items[0][price]');
    if (price.type !== 'recurring' || (params.line_items?.length ?? 0) > 1) {
      throw invalidRequest(
        'The sandbox supports exactly one recurring price in `subscription` mode.',
        'line_items',
      );
    }
    const now = clock.now();
    const trial = params.subscription_data;
    if (trial?.trial_end !== undefined && trial.trial_end < now + 2 * DAY) {
      throw invalidRequest(
        '`subscription_data[trial_end]` must be at least 48 hours in the future.',
        'subscription_data[trial_end]',
      );
    }
    const expiresAt = params.expires_at ?? now + DAY;
    if (expiresAt < now + 1800 || expiresAt > now + DAY) {
      throw invalidRequest(
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'expires_at',
      );
    }
    const quantity = lineItem.quantity ?? 1;
    const hasTrial = trial?.trial_period_days !== undefined || trial?.trial_end !== undefined;
    const session = buildCheckoutSession({
      origin: deps.getOrigin(),
      created: now,
      expiresAt,
      mode: params.mode,
      customer: customer?.id ?? null,
      customerEmail: params.customer_email ?? null,
      clientReferenceId: params.client_reference_id ?? null,
      successUrl: params.success_url ?? null,
      cancelUrl: params.cancel_url ?? null,
      metadata: mergeMetadata({}, params.metadata),
      currency: price.currency,
      amount: hasTrial ? 0 : (price.unit_amount ?? 0) * quantity,
      locale: params.locale ?? null,
      allowPromotionCodes: params.allow_promotion_codes ?? null,
      paymentMethodCollection: params.payment_method_collection ?? 'always',
    });
    store.checkoutSessions.set(session.id, session);
    store.sessionPlans.set(session.id, {
      price: price.id,
      quantity,
      trialPeriodDays: trial?.trial_period_days,
      trialEnd: trial?.trial_end,
      trialEndBehavior: trial?.trial_settings?.end_behavior.missing_payment_method ?? 'create_invoice',
      subscriptionMetadata: mergeMetadata({}, trial?.metadata),
      subscriptionDescription: trial?.description ?? null,
    });
    return present(session, params.expand);
  });

  scope.get('/checkout/sessions/:id', async (request) => {
    const { id } = request.params as { id: string };
    const params = parseParams(retrieveParams, request.query);
    return present(sessionOf(id), params.expand);
  });

  scope.get('/checkout/sessions/:id/line_items', async (request) => {
    const { id } = request.params as { id: string };
    return lineItemsOf(sessionOf(id));
  });

  scope.get('/checkout/sessions', async (request) => {
    const params = parseParams(sessionListParams, request.query);
    const sessions = [...store.checkoutSessions.values()].filter(
      (session) =>
        (params.customer === undefined || session.customer === params.customer) &&
        (params.subscription === undefined || session.subscription === params.subscription) &&
        (params.status === undefined || session.status === params.status),
    );
    return expanded(deps, paginate('/v1/checkout/sessions', sessions, params), params.expand);
  });

  scope.post('/checkout/sessions/:id/expire', async (request, reply) => {
    const { id } = request.params as { id: string };
    const params = parseParams(retrieveParams, request.body);
    const session = sessionOf(id);
    if (session.status !== 'open') {
      throw invalidRequest(
        `Only Checkout Sessions with a status of \`open\` can be expired. This Checkout Session has a status of \`${session.status}\`.`,
      );
    }
    events.during(eventRequest(request, reply), () => expireSession(deps, session));
    return present(session, params.expand);
  });
}
