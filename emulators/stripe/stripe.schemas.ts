import { z } from 'zod';
import { CODE_SEPARATOR, fromZodError } from './stripe.errors.ts';

/** Form values arrive as strings: these read them as Stripe does and word failures as it does. */
const coded = (code: string, message: string) => `${code}${CODE_SEPARATOR}${message}`;

export const text = z.string();
export const nonEmpty = z.string().min(1, {
  error: () =>
    coded('parameter_invalid_empty', 'You passed an empty string for this parameter, which cannot be unset.'),
});
export const integer = z
  .string()
  .regex(/^-?\d+$/, {
    error: (issue) => coded('parameter_invalid_integer', `Invalid integer: ${issue.input}`),
  })
  .transform(Number);
export const boolean = z
  .enum(['true', 'false'], { error: (issue) => `Invalid boolean: ${String(issue.input)}` })
  .transform((value) => value === 'true');
export const metadata = z.record(z.string(), z.string());
export const expand = z.array(z.string()).max(20).optional();
export const url = z
  .string()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    error: (issue) => coded('url_invalid', `Not a valid URL: ${String(issue.input)}`),
  });

export const listParams = {
  limit: integer.pipe(z.number().int().min(1).max(100)).optional(),
  starting_after: z.string().optional(),
  ending_before: z.string().optional(),
  expand,
};

export const retrieveParams = z.object({ expand });

export const priceListParams = z.object({
  ...listParams,
  active: boolean.optional(),
  currency: z.string().optional(),
  product: z.string().optional(),
  type: z.enum(['one_time', 'recurring']).optional(),
  lookup_keys: z.array(z.string()).max(10).optional(),
  recurring: z.object({ interval: z.enum(['day', 'week', 'month', 'year']).optional() }).optional(),
});

const customerFields = {
  email: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  phone: z.string().optional(),
  metadata: metadata.optional(),
  preferred_locales: z.array(z.string()).optional(),
  expand,
};
export const customerCreateParams = z.object(customerFields);
export const customerUpdateParams = z.object(customerFields);
export const customerListParams = z.object({ ...listParams, email: z.string().optional() });

export const checkoutSessionCreateParams = z.object({
  mode: z.enum(['payment', 'setup', 'subscription']),
  line_items: z
    .array(z.object({ price: nonEmpty, quantity: integer.pipe(z.number().int().min(1)).optional() }))
    .optional(),
  customer: z.string().optional(),
  customer_email: z.string().optional(),
  client_reference_id: z.string().max(200).optional(),
  success_url: url.optional(),
  cancel_url: url.optional(),
  metadata: metadata.optional(),
  expires_at: integer.optional(),
  locale: z.string().optional(),
  allow_promotion_codes: boolean.optional(),
  payment_method_collection: z.enum(['always', 'if_required']).optional(),
  subscription_data: z
    .object({
      trial_period_days: integer.pipe(z.number().int().min(1).max(730)).optional(),
      trial_end: integer.optional(),
      description: z.string().optional(),
      metadata: metadata.optional(),
      trial_settings: z
        .object({
          end_behavior: z.object({
            missing_payment_method: z.enum(['cancel', 'create_invoice', 'pause']),
          }),
        })
        .optional(),
    })
    .optional(),
  expand,
});

export const portalSessionCreateParams = z.object({
  customer: nonEmpty,
  return_url: url.optional(),
  configuration: z.string().optional(),
  locale: z.string().optional(),
  flow_data: z.record(z.string(), z.unknown()).optional(),
  expand,
});

export const subscriptionStatuses = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;

export const subscriptionListParams = z.object({
  ...listParams,
  customer: z.string().optional(),
  price: z.string().optional(),
  status: z.enum([...subscriptionStatuses, 'all', 'ended']).optional(),
});

export const subscriptionUpdateParams = z.object({
  cancel_at_period_end: boolean.optional(),
  items: z
    .array(
      z.object({
        id: z.string().optional(),
        price: z.string().optional(),
        quantity: integer.pipe(z.number().int().min(1)).optional(),
        deleted: boolean.optional(),
      }),
    )
    .optional(),
  proration_behavior: z.enum(['always_invoice', 'create_prorations', 'none']).optional(),
  metadata: metadata.optional(),
  description: z.string().optional(),
  trial_end: z.union([z.literal('now'), integer]).optional(),
  cancellation_details: z
    .object({ comment: z.string().optional(), feedback: z.string().optional() })
    .optional(),
  expand,
});

export const subscriptionCancelParams = z.object({
  invoice_now: boolean.optional(),
  prorate: boolean.optional(),
  cancellation_details: z
    .object({ comment: z.string().optional(), feedback: z.string().optional() })
    .optional(),
  expand,
});

export const paymentIntentCreateParams = z.object({
  amount: integer.pipe(z.number().int().min(1)),
  currency: z.string().length(3),
  customer: z.string().optional(),
  description: z.string().optional(),
  receipt_email: z.string().optional(),
  metadata: metadata.optional(),
  setup_future_usage: z.enum(['on_session', 'off_session']).optional(),
  payment_method_types: z.array(z.string()).optional(),
  automatic_payment_methods: z
    .object({ enabled: boolean, allow_redirects: z.enum(['always', 'never']).optional() })
    .optional(),
  expand,
});

export const eventListParams = z.object({
  ...listParams,
  type: z.string().optional(),
  types: z.array(z.string()).optional(),
});

/** Parses `input` or throws Stripe's 400. */
export function parseParams<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw fromZodError(result.error, input);
}
