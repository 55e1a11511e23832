import type Stripe from 'stripe';
import type { StripeBilling } from './stripe.billing.ts';
import type { StoredCard } from './stripe.cards.ts';
import { addInterval, type StripeClock } from './stripe.clock.ts';
import { buildCustomer } from './stripe.customer-object.ts';
import { stripeId } from './stripe.ids.ts';
import type { StripeStore } from './stripe.store.ts';
import { buildSubscription } from './stripe.subscription-object.ts';
import type { StripeEvents } from './stripe.webhooks.ts';

export type CheckoutDeps = {
  store: StripeStore;
  clock: StripeClock;
  events: StripeEvents;
  billing: StripeBilling;
};

export type CheckoutPayment = {
  email: string;
  name: string | null;
  /** Absent when the session lets a trial start without a payment method. */
  card: Omit<StoredCard, 'paymentMethod'> | undefined;
};

export function createCustomer(
  deps: CheckoutDeps,
  fields: Omit<Parameters<typeof buildCustomer>[0], 'id' | 'created'>,
): Stripe.Customer {
  const customer = buildCustomer({ ...fields, id: stripeId('customer'), created: deps.clock.now() });
  deps.store.customers.set(customer.id, customer);
  deps.events.emit('customer.created', customer);
  return customer;
}

export function saveCard(
  deps: CheckoutDeps,
  customer: Stripe.Customer,
  card: Omit<StoredCard, 'paymentMethod'>,
) {
  const stored: StoredCard = { ...card, paymentMethod: stripeId('paymentMethod') };
  deps.store.cards.set(customer.id, stored);
  customer.invoice_settings.default_payment_method = stored.paymentMethod;
  return stored;
}

/**
 * What submitting the hosted Checkout page does: customer (if needed), subscription (trialing, or
 * incomplete until its first invoice is paid), that invoice, then `checkout.session.completed`.
 */
export function completeCheckout(
  deps: CheckoutDeps,
  session: Stripe.Checkout.Session,
  payment: CheckoutPayment,
): Stripe.Subscription {
  const { store, clock, events, billing } = deps;
  const plan = store.sessionPlans.get(session.id);
  const price = plan ? store.prices.get(plan.price) : undefined;
  if (!plan || !price) throw new Error(`Checkout Session ${session.id} has no price`);
  const existing = session.customer ? store.customers.get(session.customer as string) : undefined;
  const customer = existing ?? createCustomer(deps, { email: payment.email, name: payment.name });
  const card = payment.card ? saveCard(deps, customer, payment.card) : undefined;

  const now = clock.now();
  const trialEnd = plan.trialEnd ?? (plan.trialPeriodDays ? now + plan.trialPeriodDays * 86_400 : undefined);
  const recurring = price.recurring;
  const periodEnd =
    trialEnd ?? addInterval(now, recurring?.interval ?? 'month', recurring?.interval_count ?? 1);
  const subscription = buildSubscription({
    customer: customer.id,
    price,
    quantity: plan.quantity,
    created: now,
    periodStart: now,
    periodEnd,
    status: trialEnd ? 'trialing' : 'incomplete',
    trialStart: trialEnd ? now : null,
    trialEnd: trialEnd ?? null,
    trialEndBehavior: plan.trialEndBehavior,
    metadata: plan.subscriptionMetadata,
    description: plan.subscriptionDescription,
    defaultPaymentMethod: card?.paymentMethod ?? null,
  });
  store.subscriptions.set(subscription.id, subscription);
  const amount = trialEnd ? 0 : (price.unit_amount ?? 0) * plan.quantity;
  // The created event already names the first invoice, as Stripe's does.
  const invoice = billing.createInvoice(subscription, 'subscription_create', amount, {
    start: now,
    end: now,
  });
  events.emit('customer.subscription.created', subscription);
  billing.announceInvoice(invoice);
  billing.attemptPayment(invoice, true);
  if (!trialEnd) {
    billing.update(subscription, () => {
      subscription.status = 'active';
    });
  }

  session.status = 'complete';
  session.payment_status = trialEnd ? 'no_payment_required' : 'paid';
  session.customer = customer.id;
  session.subscription = subscription.id;
  session.invoice = invoice.id;
  session.customer_details = {
    address: null,
    business_name: null,
    email: customer.email ?? payment.email,
    individual_name: null,
    name: payment.name ?? customer.name ?? null,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
  events.emit('checkout.session.completed', session);
  return subscription;
}

export function expireSession(deps: CheckoutDeps, session: Stripe.Checkout.Session): void {
  session.status = 'expired';
  session.url = null;
  deps.events.emit('checkout.session.expired', session);
}
