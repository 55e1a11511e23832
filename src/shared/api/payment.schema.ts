import { z } from 'zod';
import { PRODUCT_KEY } from '../product.ts';

/** Stripe price lookup keys: `{product}Monthly` and `{product}Yearly` (docs/product-rules.md §9). */
export const LOOKUP_KEYS = { month: `${PRODUCT_KEY}Monthly`, year: `${PRODUCT_KEY}Yearly` } as const;

export const checkoutFormSchema = z.object({
  lookup_key: z.enum([LOOKUP_KEYS.month, LOOKUP_KEYS.year], 'Please choose the monthly or the yearly plan'),
});

export const completeCheckoutSchema = z.object({ sessionId: z.string().min(1).max(255) });

export const clientSecretSchema = z.object({ clientSecret: z.string() });

/** Prices as the product shows them; Stripe holds the amounts it charges. */
export const PLANS = {
  month: { label: 'Monthly', price: '$3', period: 'per month' },
  year: { label: 'Yearly', price: '$24', period: 'per year', note: 'Save 33%' },
} as const;
