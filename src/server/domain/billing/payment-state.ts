import type { UserRow } from '#server/db/schema/users.table.ts';
import type { SubscriptionStatus } from '#shared/api/current-user.schema.ts';
import type { PaymentState } from '#shared/billing/subscription-status.ts';

/** The plan interval as stored ('month', 'year', or anything else: none). */
export const planIntervalOf = (stored: string | null): 'month' | 'year' | null =>
  stored === 'month' || stored === 'year' ? stored : null;

/** The payment part of a stored user, as the entitlement rules read it. */
export function paymentStateOf(
  user: Pick<UserRow, 'validUntil' | 'subscriptionStatus' | 'planInterval' | 'canceled' | 'trialing'>,
): PaymentState {
  return {
    validUntil: user.validUntil.toISOString(),
    subscriptionStatus: user.subscriptionStatus as SubscriptionStatus,
    plan: { interval: planIntervalOf(user.planInterval) },
    canceled: user.canceled,
    trialing: user.trialing,
  };
}
