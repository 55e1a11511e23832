import { z } from 'zod';
import { PRODUCT_KEY } from '../product.ts';

/** Stripe price lookup keys: `{product}Monthly` and `{product}Yearly` (docs/product-rules.md §9). */
export const LOOKUP_KEYS = { month: `${PRODUCT_KEY}Monthly`, year: `${PRODUCT_KEY}Yearly` } as const;

export const checkoutFormSchema = z.object({
  lookup_key: z.enum([LOOKUP_KEYS.month, LOOKUP_KEYS.year], 'Please choose the monthly or the yearly plan'),
});

/** Stripe's Checkout Session ids: `cs_test_` or `cs_live_`, then ASCII letters, digits and underscores. */
const CHECKOUT_SESSION_ID = /^cs_(?:test|live)_[A-Za-z0-9_]{1,240}$/;
export const CHECKOUT_SESSION_ID_INVALID = 'This checkout link is not valid.';

export const completeCheckoutSchema = z.object({
  sessionId: z.string(CHECKOUT_SESSION_ID_INVALID).regex(CHECKOUT_SESSION_ID, CHECKOUT_SESSION_ID_INVALID),
});

export const clientSecretSchema = z.object({ clientSecret: z.string() });

/** Prices as the product shows them; Stripe holds the amounts it charges. */
export const PLANS = {
  month: { label: 'Monthly', price: '$3', period: 'per month' },
  year: { label: 'Yearly', price: '$24', period: 'per year', note: 'Save 33%' },
} as const;
