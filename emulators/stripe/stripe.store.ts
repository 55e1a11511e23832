import type Stripe from 'stripe';
import type { StoredCard } from './stripe.cards.ts';
import { buildPrice, buildProduct, type CatalogProduct } from './stripe.catalog.ts';
import type { TrialEndBehavior } from './stripe.subscription-object.ts';

/** What a Checkout Session will create when paid, kept beside the wire object. */
export type SessionPlan = {
  price: string;
  quantity: number;
  trialPeriodDays: number | undefined;
  trialEnd: number | undefined;
  trialEndBehavior: TrialEndBehavior;
  subscriptionMetadata: Record<string, string>;
  subscriptionDescription: string | null;
};

export type StripeEvent = {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
};

export class StripeStore {
  readonly products = new Map<string, Stripe.Product>();
  readonly prices = new Map<string, Stripe.Price>();
  readonly customers = new Map<string, Stripe.Customer>();
  readonly deletedCustomers = new Set<string>();
  /** The card each customer pays with (Checkout saves it). */
  readonly cards = new Map<string, StoredCard>();
  readonly checkoutSessions = new Map<string, Stripe.Checkout.Session>();
  readonly sessionPlans = new Map<string, SessionPlan>();
  readonly portalSessions = new Map<string, Stripe.BillingPortal.Session>();
  readonly subscriptions = new Map<string, Stripe.Subscription>();
  /** Subscriptions whose `customer.subscription.trial_will_end` went out. */
  readonly trialWillEndSent = new Set<string>();
  readonly invoices = new Map<string, Stripe.Invoice>();
  /** The payment intent that pays each invoice. */
  readonly invoicePayments = new Map<string, string>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly events: StripeEvent[] = [];
  readonly #catalog: readonly CatalogProduct[];

  constructor(catalog: readonly CatalogProduct[], created: number) {
    this.#catalog = catalog;
    this.#seed(created);
  }

  #seed(created: number): void {
    for (const entry of this.#catalog) {
      this.products.set(entry.id, buildProduct(entry, created));
      for (const price of entry.prices) this.prices.set(price.id, buildPrice(price, entry.id, created));
    }
  }

  reset(created: number): void {
    for (const map of [
      this.products,
      this.prices,
      this.customers,
      this.cards,
      this.checkoutSessions,
      this.sessionPlans,
      this.portalSessions,
      this.subscriptions,
      this.invoices,
      this.invoicePayments,
      this.paymentIntents,
    ]) {
      map.clear();
    }
    this.trialWillEndSent.clear();
    this.deletedCustomers.clear();
    this.events.length = 0;
    this.#seed(created);
  }

  /** Any stored object by id, for `expand[]`. */
  find(id: string): object | undefined {
    const maps: [string, Map<string, object>][] = [
      ['cus_', this.customers],
      ['sub_', this.subscriptions],
      ['in_', this.invoices],
      ['pi_', this.paymentIntents],
      ['price_', this.prices],
      ['prod_', this.products],
      ['cs_', this.checkoutSessions],
      ['bps_', this.portalSessions],
      ['evt_', new Map(this.events.map((event) => [event.id, event]))],
    ];
    return maps.find(([prefix]) => id.startsWith(prefix))?.[1].get(id);
  }

  subscriptionsOf(customer: string): Stripe.Subscription[] {
    return [...this.subscriptions.values()].filter((subscription) => subscription.customer === customer);
  }

  snapshot() {
    return {
      products: [...this.products.values()],
      prices: [...this.prices.values()],
      customers: [...this.customers.values()].map((customer) => ({
        ...customer,
        card: this.cards.get(customer.id) ?? null,
      })),
      checkoutSessions: [...this.checkoutSessions.values()],
      portalSessions: [...this.portalSessions.values()],
      subscriptions: [...this.subscriptions.values()],
      invoices: [...this.invoices.values()],
      paymentIntents: [...this.paymentIntents.values()],
      events: this.events.map(({ id, type, created, data }) => ({
        id,
        type,
        created,
        object: (data.object as { id?: string }).id,
      })),
    };
  }
}
