import type Stripe from 'stripe';
import { planFromPrice } from './stripe.catalog.ts';
import { stripeId } from './stripe.ids.ts';

export type TrialEndBehavior = 'cancel' | 'create_invoice' | 'pause';

export type SubscriptionInput = {
  customer: string;
  price: Stripe.Price;
  quantity: number;
  created: number;
  periodStart: number;
  periodEnd: number;
  status: Stripe.Subscription.Status;
  trialStart: number | null;
  trialEnd: number | null;
  trialEndBehavior: TrialEndBehavior;
  metadata: Record<string, string>;
  description: string | null;
  defaultPaymentMethod: string | null;
};

export function buildSubscriptionItem(
  subscription: string,
  price: Stripe.Price,
  quantity: number,
  created: number,
  periodStart: number,
  periodEnd: number,
): Stripe.SubscriptionItem {
  return {
    id: stripeId('subscriptionItem'),
    object: 'subscription_item',
    billing_thresholds: null,
    created,
    current_period_end: periodEnd,
    current_period_start: periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planFromPrice(price),
    price,
    quantity,
    subscription,
    tax_rates: [],
  };
}

export function buildSubscription(input: SubscriptionInput): Stripe.Subscription {
  const id = stripeId('subscription');
  const item = buildSubscriptionItem(
    id,
    input.price,
    input.quantity,
    input.created,
    input.periodStart,
    input.periodEnd,
  );
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: input.trialEnd ?? input.periodStart,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: input.created,
    currency: input.price.currency,
    customer: input.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: input.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: input.description,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: {
      object: 'list',
      data: [item],
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: input.created,
    status: input.status,
    test_clock: null,
    transfer_data: null,
    trial_end: input.trialEnd,
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: input.trialEndBehavior },
    },
    trial_start: input.trialStart,
  };
}

/** The subscription's (single) item; the emulator's subscriptions always have exactly one. */
export function firstItem(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Subscription ${subscription.id} has no item`);
  return item;
}
