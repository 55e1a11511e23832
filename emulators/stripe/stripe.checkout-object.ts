import type Stripe from 'stripe';
import { stripeId } from './stripe.ids.ts';

export type CheckoutSessionInput = {
  origin: string;
  created: number;
  expiresAt: number;
  mode: Stripe.Checkout.Session.Mode;
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  currency: string;
  /** What the first invoice will charge: 0 with a trial. */
  amount: number;
  locale: string | null;
  allowPromotionCodes: boolean | null;
  paymentMethodCollection: 'always' | 'if_required';
};

export function buildCheckoutSession(input: CheckoutSessionInput): Stripe.Checkout.Session {
  const id = stripeId('checkoutSession');
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: input.allowPromotionCodes,
    allowed_payment_method_types: null,
    amount_subtotal: input.amount,
    amount_total: input.amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: input.created,
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: input.customer,
    customer_account: null,
    customer_creation: input.customer ? null : 'always',
    customer_details: input.customerEmail
      ? {
          address: null,
          business_name: null,
          email: input.customerEmail,
          individual_name: null,
          name: null,
          phone: null,
          tax_exempt: 'none',
          tax_ids: null,
        }
      : null,
    customer_email: input.customerEmail,
    discounts: [],
    expires_at: input.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: (input.locale as Stripe.Checkout.Session.Locale | null) ?? null,
    managed_payments: null,
    metadata: input.metadata,
    mode: input.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: input.paymentMethodCollection,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `${input.origin}/c/pay/${id}`,
    wallet_options: null,
  };
}

/** The session's line items (an includable property: sent only with `expand[]=line_items`). */
export function buildLineItems(
  sessionId: string,
  price: Stripe.Price,
  quantity: number,
  productName: string,
): Stripe.ApiList<Stripe.LineItem> {
  const amount = (price.unit_amount ?? 0) * quantity;
  return {
    object: 'list',
    data: [
      {
        id: stripeId('lineItem'),
        object: 'item',
        adjustable_quantity: null,
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency,
        description: productName,
        metadata: {},
        price,
        quantity,
      },
    ],
    has_more: false,
    url: `/v1/checkout/sessions/${sessionId}/line_items`,
  };
}
