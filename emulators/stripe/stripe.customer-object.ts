import type Stripe from 'stripe';
import { randomAlphanumeric } from '../shared/ids.ts';

export type CustomerInput = {
  id: string;
  created: number;
  email?: string | null;
  name?: string | null;
  description?: string | null;
  phone?: string | null;
  metadata?: Record<string, string>;
  preferredLocales?: string[];
};

export function buildCustomer(input: CustomerInput): Stripe.Customer {
  return {
    id: input.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: input.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: input.description ?? null,
    discount: null,
    email: input.email ?? null,
    invoice_prefix: randomAlphanumeric(8).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: input.metadata ?? {},
    name: input.name ?? null,
    next_invoice_sequence: 1,
    phone: input.phone ?? null,
    preferred_locales: input.preferredLocales ?? [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

/** Applies Stripe's metadata update rule: keys merge, and an empty value removes its key. */
export function mergeMetadata(
  current: Record<string, string>,
  update: Record<string, string> | undefined,
): Record<string, string> {
  if (!update) return current;
  const merged = { ...current, ...update };
  for (const [key, value] of Object.entries(update)) if (value === '') delete merged[key];
  return merged;
}

/** An empty string unsets an optional text field. */
export function emptyToNull(value: string | undefined, current: string | null): string | null {
  if (value === undefined) return current;
  return value === '' ? null : value;
}
