import Stripe from 'stripe';
import type { StripeConfig } from '#server/config.ts';
import type {
  BillingGateway,
  BillingWebhookEvent,
  SubscriptionSnapshot,
} from '#server/domain/billing/billing-gateway.port.ts';
import {
  BillingUnavailableError,
  CheckoutNotFoundError,
} from '#server/domain/billing/billing-gateway.port.ts';
import { type DomainError, InvalidSignatureError } from '#server/domain/shared/domain-errors.ts';

const WEBHOOK_TOLERANCE_S = 300;
/** A live subscription matters more than an ended one when a customer has several. */
const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused']);

/**
 * Runs one SDK call. Whatever the SDK throws (a StripeError, whose `statusCode` and words must never
 * reach the user, or an error of its own such as a URIError while encoding an id) becomes
 * BillingUnavailableError naming the call, with the SDK's error as the cause for the log; `refine`
 * may pick a more telling domain error first.
 */
async function calling<T>(
  call: string,
  work: () => Promise<T>,
  refine?: (error: unknown) => DomainError | undefined,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw refine?.(error) ?? new BillingUnavailableError(`Stripe failed: ${call}`, { cause: error });
  }
}

const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError &&
  (error.code === 'resource_missing' || error.statusCode === 404);

/** The billing gateway on Stripe's official SDK; the API host comes from config (Stripe or its emulator). */
export function createStripeBillingGateway(config: StripeConfig): BillingGateway {
  const api = new URL(config.apiUrl);
  const protocol = api.protocol === 'http:' ? 'http' : 'https';
  const stripe = new Stripe(config.secretKey, {
    host: api.hostname,
    port: api.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: 2,
    timeout: 15_000,
  });

  const priceFor = async (lookupKey: string) => {
    const prices = await calling('list prices', () =>
      stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 }),
    );
    const price = prices.data[0];
    if (!price) throw new BillingUnavailableError(`No active price has the lookup key ${lookupKey}`);
    return price;
  };

  return {
    async createCustomer({ userId, email, name }) {
      const customer = await calling('create customer', () =>
        stripe.customers.create(
          { email: email || undefined, name, metadata: { userId } },
          { idempotencyKey: `customer-${userId}` },
        ),
      );
      return customer.id;
    },

    async createCheckoutSession({ customerId, userId, lookupKey, successUrl, cancelUrl, trialEnd }) {
      const price = await priceFor(lookupKey);
      // Stripe wants whole seconds, at least 48 hours ahead: the domain passes a trial end only then
      // (`carriedTrialEnd`, which cites Stripe's reference); without one the first charge is at once.
      const subscriptionData = trialEnd
        ? { subscription_data: { trial_end: Math.floor(trialEnd.getTime() / 1000) } }
        : {};
      const session = await calling('create checkout session', () =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customerId,
          client_reference_id: userId,
          line_items: [{ price: price.id, quantity: 1 }],
          success_url: successUrl,
          cancel_url: cancelUrl,
          metadata: { userId },
          ...subscriptionData,
        }),
      );
      if (!session.url) throw new BillingUnavailableError('Checkout session without a URL');
      return session.url;
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await calling('create portal session', () =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return session.url;
    },

    async createPaymentIntent({ customerId, lookupKey }) {
      const price = await priceFor(lookupKey);
      const intent = await calling('create payment intent', () =>
        stripe.paymentIntents.create({
          amount: price.unit_amount ?? 0,
          currency: price.currency,
          customer: customerId,
          automatic_payment_methods: { enabled: true },
        }),
      );
      if (!intent.client_secret) throw new BillingUnavailableError('Payment intent without a client secret');
      return intent.client_secret;
    },

    async readCheckoutSession(id) {
      const session = await calling(
        'retrieve checkout session',
        () => stripe.checkout.sessions.retrieve(id),
        (error) => (isMissing(error) ? new CheckoutNotFoundError({ cause: error }) : undefined),
      );
      return { customerId: idOf(session.customer), clientReferenceId: session.client_reference_id };
    },

    async readSubscription(customerId) {
      const list = await calling('list subscriptions', () =>
        stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 20 }),
      );
      const [chosen] = [...list.data].sort(
        (a, b) =>
          Number(LIVE_STATUSES.has(b.status)) - Number(LIVE_STATUSES.has(a.status)) || b.created - a.created,
      );
      return chosen ? toSnapshot(chosen) : null;
    },

    verifyWebhook(rawBody, signature) {
      try {
        return toWebhookEvent(
          stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret, WEBHOOK_TOLERANCE_S),
        );
      } catch (error) {
        // A bad signature, a stale timestamp, or a signed body that is not an event: the sender's fault.
        throw new InvalidSignatureError('The webhook signature is not valid.', { cause: error });
      }
    },
  };
}

function toSnapshot(subscription: Stripe.Subscription): SubscriptionSnapshot {
  const item = subscription.items.data[0];
  const interval = item?.price.recurring?.interval;
  return {
    id: subscription.id,
    status: subscription.status,
    interval: interval === 'month' ? 'month' : interval === 'year' ? 'year' : null,
    currentPeriodEnd: new Date((item?.current_period_end ?? subscription.start_date) * 1000),
    trialEnd: subscription.trial_end ? new Date(subscription.trial_end * 1000) : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    endedAt: subscription.ended_at ? new Date(subscription.ended_at * 1000) : null,
  };
}

function toWebhookEvent(event: Stripe.Event): BillingWebhookEvent {
  const object = event.data.object as { object?: string; customer?: unknown; client_reference_id?: unknown };
  return {
    id: event.id,
    type: event.type,
    customerId: object.object === 'customer' ? idOf(object as { id: string }) : idOf(object.customer),
    clientReferenceId: typeof object.client_reference_id === 'string' ? object.client_reference_id : null,
  };
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string')
    return value.id;
  return null;
}
