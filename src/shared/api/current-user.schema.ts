import { z } from 'zod';

export const subscriptionStatusSchema = z.enum([
  'trial',
  'active',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'unpaid',
]);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const paymentSchema = z.object({
  validUntil: z.iso.datetime({ offset: true }),
  subscriptionStatus: subscriptionStatusSchema,
  plan: z.object({ interval: z.enum(['month', 'year']).nullable() }),
  canceled: z.boolean(),
});

/** The signed-in user as `GET /api/current_user` returns it (spec §3). Never carries a token. */
export const currentUserSchema = z.object({
  id: z.uuid(),
  name: z.object({ firstName: z.string(), displayName: z.string() }),
  email: z.string(),
  googleId: z.string().nullable(),
  facebookId: z.string().nullable(),
  syncActive: z.boolean(),
  welcomeWizardSeen: z.boolean(),
  payment: paymentSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
