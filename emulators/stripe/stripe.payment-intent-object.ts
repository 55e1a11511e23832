import type Stripe from 'stripe';
import { clientSecretFor, stripeId } from './stripe.ids.ts';

export type PaymentIntentInput = {
  amount: number;
  currency: string;
  created: number;
  customer: string | null;
  description?: string | null;
  metadata?: Record<string, string>;
  receiptEmail?: string | null;
  automaticPaymentMethods?: { enabled: boolean; allow_redirects?: 'always' | 'never' } | null;
  paymentMethodTypes?: string[];
  setupFutureUsage?: 'on_session' | 'off_session' | null;
};

export function buildPaymentIntent(input: PaymentIntentInput): Stripe.PaymentIntent {
  const id = stripeId('paymentIntent');
  const automatic = input.automaticPaymentMethods ?? null;
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: input.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: automatic,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: clientSecretFor(id),
    confirmation_method: 'automatic',
    created: input.created,
    currency: input.currency.toLowerCase(),
    customer: input.customer,
    customer_account: null,
    description: input.description ?? null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: automatic?.enabled
      ? { id: 'pmc_sandboxDefault', parent: null }
      : null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: input.paymentMethodTypes ?? ['card'],
    payment_record: null,
    processing: null,
    receipt_email: input.receiptEmail ?? null,
    review: null,
    setup_future_usage: input.setupFutureUsage ?? null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
}

/** Marks the intent paid with `paymentMethod`, as confirming it server side would. */
export function succeed(intent: Stripe.PaymentIntent, paymentMethod: string): void {
  intent.status = 'succeeded';
  intent.payment_method = paymentMethod;
  intent.amount_received = intent.amount;
  intent.latest_charge = stripeId('charge');
  intent.last_payment_error = null;
}

export function fail(intent: Stripe.PaymentIntent, paymentMethod: string | null, decline: CardDecline): void {
  intent.status = 'requires_payment_method';
  intent.payment_method = null;
  intent.latest_charge = stripeId('charge');
  intent.last_payment_error = {
    type: 'card_error',
    code: decline.code,
    decline_code: decline.declineCode,
    message: decline.message,
    doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, '-')}`,
    ...(paymentMethod ? { payment_method_type: 'card' } : {}),
  };
}

export type CardDecline = { code: string; declineCode: string; message: string };
