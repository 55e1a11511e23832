import type Stripe from 'stripe';
import { chargeDecline } from './stripe.cards.ts';
import type { StripeClock } from './stripe.clock.ts';
import { addInterval } from './stripe.clock.ts';
import { buildInvoice } from './stripe.invoice-object.ts';
import { buildPaymentIntent, fail, succeed } from './stripe.payment-intent-object.ts';
import type { StripeStore } from './stripe.store.ts';
import { firstItem } from './stripe.subscription-object.ts';
import type { StripeEvents } from './stripe.webhooks.ts';

export type DunningOptions = {
  /** Days between a failed attempt and the next one; after the last retry fails, `finalAction`. */
  retryScheduleDays: number[];
  finalAction: 'cancel' | 'unpaid';
};

export const DEFAULT_DUNNING: DunningOptions = { retryScheduleDays: [3, 5, 7], finalAction: 'cancel' };

export type CancellationReason = Stripe.Subscription.CancellationDetails.Reason | null;

/** Top-level fields whose value changed, with their old values: Stripe's `previous_attributes`. */
export function previousAttributes(before: object, after: object): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  for (const key of Object.keys(now)) {
    if (JSON.stringify(old[key]) !== JSON.stringify(now[key])) changed[key] = old[key] ?? null;
  }
  return changed;
}

/** Subscription money movements and state changes, each with the events Stripe sends for it. */
export class StripeBilling {
  readonly #store: StripeStore;
  readonly #clock: StripeClock;
  readonly #events: StripeEvents;
  readonly dunning: DunningOptions;

  constructor(store: StripeStore, clock: StripeClock, events: StripeEvents, dunning: DunningOptions) {
    this.#store = store;
    this.#clock = clock;
    this.#events = events;
    this.dunning = dunning;
  }

  /** Applies `mutate` and sends `customer.subscription.updated` when anything changed. */
  update(subscription: Stripe.Subscription, mutate: () => void): void {
    const before = structuredClone(subscription);
    mutate();
    const previous = previousAttributes(before, subscription);
    if (Object.keys(previous).length > 0) {
      this.#events.emit('customer.subscription.updated', subscription, previous);
    }
  }

  /** Opens (finalizes) the next invoice of `subscription`, with `invoice.created` and `.finalized`. */
  openInvoice(
    subscription: Stripe.Subscription,
    billingReason: Stripe.Invoice.BillingReason,
    amount: number,
    period: { start: number; end: number },
  ): Stripe.Invoice {
    const invoice = this.createInvoice(subscription, billingReason, amount, period);
    this.announceInvoice(invoice);
    return invoice;
  }

  announceInvoice(invoice: Stripe.Invoice): void {
    this.#events.emit('invoice.created', invoice);
    this.#events.emit('invoice.finalized', invoice);
  }

  /** The subscription's next invoice, stored and set as its `latest_invoice`; no events yet. */
  createInvoice(
    subscription: Stripe.Subscription,
    billingReason: Stripe.Invoice.BillingReason,
    amount: number,
    period: { start: number; end: number },
  ): Stripe.Invoice {
    const customer = this.#store.customers.get(subscription.customer as string);
    if (!customer) throw new Error(`Unknown customer ${String(subscription.customer)}`);
    const item = firstItem(subscription);
    const sequence = customer.next_invoice_sequence ?? 1;
    customer.next_invoice_sequence = sequence + 1;
    const invoice = buildInvoice({
      customer,
      subscription,
      created: this.#clock.now(),
      billingReason,
      linePeriod: { start: item.current_period_start, end: item.current_period_end },
      period,
      amount,
      number: `${customer.invoice_prefix}-${String(sequence).padStart(4, '0')}`,
    });
    this.#store.invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  /**
   * One payment attempt with the customer's card. True when the invoice ends up paid.
   * `firstCharge`: the Checkout payment, which the "fails later" test card lets through.
   */
  attemptPayment(invoice: Stripe.Invoice, firstCharge = false): boolean {
    const now = this.#clock.now();
    invoice.attempted = true;
    invoice.attempt_count += 1;
    const card = this.#store.cards.get(invoice.customer as string);
    const decline = invoice.amount_due === 0 || (firstCharge && card) ? undefined : chargeDecline(card);
    let intent: Stripe.PaymentIntent | undefined;
    if (invoice.amount_due > 0) {
      const intentId = this.#store.invoicePayments.get(invoice.id);
      intent = intentId ? this.#store.paymentIntents.get(intentId) : undefined;
      if (!intent) {
        intent = buildPaymentIntent({
          amount: invoice.amount_due,
          currency: invoice.currency,
          created: now,
          customer: invoice.customer as string,
          description:
            invoice.billing_reason === 'subscription_create'
              ? 'Subscription creation'
              : 'Subscription update',
        });
        this.#store.paymentIntents.set(intent.id, intent);
        this.#store.invoicePayments.set(invoice.id, intent.id);
      }
    }
    if (decline) {
      if (intent) fail(intent, card?.paymentMethod ?? null, decline);
      this.#events.emit('invoice.payment_failed', invoice);
      return false;
    }
    if (intent && card) succeed(intent, card.paymentMethod);
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = now;
    this.#events.emit('invoice.paid', invoice);
    this.#events.emit('invoice.payment_succeeded', invoice);
    return true;
  }

  /** After a failed attempt: schedules the next retry, or gives up as the dunning settings say. */
  afterFailedAttempt(subscription: Stripe.Subscription, invoice: Stripe.Invoice): void {
    const delayDays = this.dunning.retryScheduleDays[invoice.attempt_count - 1];
    if (delayDays !== undefined) {
      invoice.next_payment_attempt = this.#clock.now() + delayDays * 86_400;
      this.update(subscription, () => {
        subscription.status = 'past_due';
      });
      return;
    }
    invoice.next_payment_attempt = null;
    if (this.dunning.finalAction === 'unpaid') {
      this.update(subscription, () => {
        subscription.status = 'unpaid';
      });
    } else {
      this.cancelNow(subscription, 'payment_failed');
    }
  }

  /** Bills the next period (renewal, or the end of a trial) and applies the payment's outcome. */
  startNextPeriod(subscription: Stripe.Subscription, start: number): void {
    const item = firstItem(subscription);
    const previousPeriod = { start: item.current_period_start, end: item.current_period_end };
    const recurring = item.price.recurring;
    const end = addInterval(start, recurring?.interval ?? 'month', recurring?.interval_count ?? 1);
    const before = structuredClone(subscription);
    item.current_period_start = start;
    item.current_period_end = end;
    const amount = (item.price.unit_amount ?? 0) * (item.quantity ?? 1);
    const invoice = this.openInvoice(subscription, 'subscription_cycle', amount, previousPeriod);
    const paid = this.attemptPayment(invoice);
    if (paid) {
      subscription.status = 'active';
    } else {
      const delayDays = this.dunning.retryScheduleDays[0];
      invoice.next_payment_attempt = delayDays === undefined ? null : this.#clock.now() + delayDays * 86_400;
      subscription.status = 'past_due';
    }
    this.#events.emit(
      'customer.subscription.updated',
      subscription,
      previousAttributes(before, subscription),
    );
    if (!paid && invoice.next_payment_attempt === null) this.afterFailedAttempt(subscription, invoice);
  }

  cancelNow(
    subscription: Stripe.Subscription,
    reason: CancellationReason,
    details: { comment?: string; feedback?: string } = {},
  ): void {
    const now = this.#clock.now();
    subscription.status = 'canceled';
    subscription.canceled_at ??= now;
    subscription.ended_at = now;
    subscription.cancel_at_period_end = false;
    subscription.cancel_at = null;
    subscription.cancellation_details = {
      comment: details.comment ?? subscription.cancellation_details?.comment ?? null,
      feedback:
        (details.feedback as Stripe.Subscription.CancellationDetails.Feedback | undefined) ??
        subscription.cancellation_details?.feedback ??
        null,
      feedback_option: null,
      reason: reason ?? subscription.cancellation_details?.reason ?? null,
    };
    this.#events.emit('customer.subscription.deleted', subscription);
  }

  /** `cancel_at_period_end` on or off, with its `customer.subscription.updated`. */
  setCancelAtPeriodEnd(
    subscription: Stripe.Subscription,
    cancel: boolean,
    details: { comment?: string; feedback?: string } = {},
  ): void {
    this.update(subscription, () => this.applyCancelAtPeriodEnd(subscription, cancel, details));
  }

  /** Sets the pending cancellation (`cancel_at`, `canceled_at`, details); off undoes it entirely. */
  applyCancelAtPeriodEnd(
    subscription: Stripe.Subscription,
    cancel: boolean,
    details: { comment?: string; feedback?: string } = {},
  ): void {
    if (subscription.cancel_at_period_end === cancel) return;
    subscription.cancel_at_period_end = cancel;
    subscription.cancel_at = cancel ? firstItem(subscription).current_period_end : null;
    subscription.canceled_at = cancel ? this.#clock.now() : null;
    subscription.cancellation_details = {
      comment: cancel ? (details.comment ?? null) : null,
      feedback: cancel
        ? ((details.feedback as Stripe.Subscription.CancellationDetails.Feedback) ?? null)
        : null,
      feedback_option: null,
      reason: cancel ? 'cancellation_requested' : null,
    };
  }
}
