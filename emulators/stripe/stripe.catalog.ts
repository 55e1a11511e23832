import type Stripe from 'stripe';

export type CatalogPrice = {
  id: string;
  lookupKey: string;
  unitAmount: number;
  currency?: string;
  interval: 'day' | 'week' | 'month' | 'year';
  intervalCount?: number;
  nickname?: string;
};

export type CatalogProduct = { id: string; name: string; description?: string; prices: CatalogPrice[] };

/** Timeboxer's plans: $3 a month or $24 a year. Fixed ids, so they survive a reset. */
export const DEFAULT_CATALOG: readonly CatalogProduct[] = [
  {
    id: 'prod_TimeboxerSbx',
    name: 'Timeboxer',
    description: 'Todoist ⇄ calendar timeboxing sync',
    prices: [
      {
        id: 'price_1TimeboxerMonthlySbx00',
        lookupKey: 'timeboxerMonthly',
        unitAmount: 300,
        interval: 'month',
      },
      {
        id: 'price_1TimeboxerYearlySbx000',
        lookupKey: 'timeboxerYearly',
        unitAmount: 2400,
        interval: 'year',
      },
    ],
  },
];

/** Wire decimals are strings; the SDK turns them into its Decimal type after parsing. */
export function wireDecimal(value: number): Stripe.Decimal {
  return String(value) as unknown as Stripe.Decimal;
}

export function buildProduct(entry: CatalogProduct, created: number): Stripe.Product {
  return {
    id: entry.id,
    object: 'product',
    active: true,
    created,
    default_price: entry.prices[0]?.id ?? null,
    description: entry.description ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    name: entry.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: created,
    url: null,
  };
}

export function buildPrice(entry: CatalogPrice, productId: string, created: number): Stripe.Price {
  return {
    id: entry.id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created,
    currency: entry.currency ?? 'usd',
    custom_unit_amount: null,
    livemode: false,
    lookup_key: entry.lookupKey,
    metadata: {},
    nickname: entry.nickname ?? null,
    product: productId,
    recurring: {
      interval: entry.interval,
      interval_count: entry.intervalCount ?? 1,
      meter: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: entry.unitAmount,
    unit_amount_decimal: wireDecimal(entry.unitAmount),
  };
}

/** The legacy `plan` view of a recurring price, still present on subscription items. */
export function planFromPrice(price: Stripe.Price): Stripe.Plan {
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? 'month',
    interval_count: price.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: typeof price.product === 'string' ? price.product : price.product.id,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}
