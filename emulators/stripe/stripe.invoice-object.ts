import type Stripe from 'stripe';
import { wireDecimal } from './stripe.catalog.ts';
import { stripeId } from './stripe.ids.ts';
import { firstItem } from './stripe.subscription-object.ts';

export type InvoiceInput = {
  customer: Stripe.Customer;
  subscription: Stripe.Subscription;
  created: number;
  billingReason: Stripe.Invoice.BillingReason;
  /** The service period the line charges for. */
  linePeriod: { start: number; end: number };
  /** Stripe's invoice period: the period just ended (renewals) or the creation instant (first invoice). */
  period: { start: number; end: number };
  /** Zero for a trial's first invoice. */
  amount: number;
  number: string;
};

function buildLine(input: InvoiceInput, invoiceId: string): Stripe.InvoiceLineItem {
  const item = firstItem(input.subscription);
  const price = item.price;
  const quantity = item.quantity ?? 1;
  const product = typeof price.product === 'string' ? price.product : price.product.id;
  const trial = input.amount === 0;
  return {
    id: stripeId('invoiceLine'),
    object: 'line_item',
    amount: input.amount,
    currency: price.currency,
    description: trial
      ? `Trial period for ${price.nickname ?? 'Timeboxer'}`
      : `${quantity} × ${price.nickname ?? 'Timeboxer'}`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: input.subscription.id,
        subscription_item: item.id,
      },
    },
    period: input.linePeriod,
    pretax_credit_amounts: [],
    pricing: {
      type: 'price_details',
      price_details: { price: price.id, product },
      unit_amount_decimal: wireDecimal(trial ? 0 : (price.unit_amount ?? 0)),
    },
    quantity,
    quantity_decimal: wireDecimal(quantity),
    subscription: input.subscription.id,
    subtotal: input.amount,
    taxes: [],
  };
}

/** A finalized (`open`) subscription invoice; paying it is the billing engine's job. */
export function buildInvoice(input: InvoiceInput): Stripe.Invoice {
  const id = stripeId('invoice');
  const { created, amount } = input;
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Timeboxer (sandbox)',
    account_tax_ids: null,
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amount,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: input.billingReason,
    collection_method: 'charge_automatically',
    created,
    currency: input.subscription.currency,
    custom_fields: null,
    customer: input.customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: input.customer.email,
    customer_name: input.customer.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [buildLine(input, id)], has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: input.number,
    on_behalf_of: null,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: input.subscription.metadata, subscription: input.subscription.id },
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: input.period.end,
    period_start: input.period.start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'open',
    status_transitions: {
      finalized_at: created,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: null,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: created,
  };
}
