import type { SubscriptionStatus } from '#shared/api/current-user.schema.ts';
import type { SubscriptionSnapshot } from './billing-gateway.port.ts';

export type StoredPayment = {
  subscriptionStatus: SubscriptionStatus;
  validUntil: Date;
  planInterval: 'month' | 'year' | null;
  canceled: boolean;
  trialing: boolean;
};

const STATUS: Record<string, SubscriptionStatus> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'unpaid',
  incomplete: 'incomplete',
  incomplete_expired: 'incomplete_expired',
  canceled: 'canceled',
  paused: 'canceled',
};

/**
 * The user's payment state from the provider's subscription, as re-read from the provider (never
 * from a webhook payload). A first payment that never completed grants nothing beyond what the user
 * already had (their trial); anything else runs until the end of the current period. A trialing
 * subscription (bought in our trial, which Checkout carried over) is the paid plan already, running until
 * its trial's end, when the first charge is due.
 */
export function paymentFromSubscription(
  subscription: SubscriptionSnapshot,
  previous: StoredPayment,
): StoredPayment {
  const status = STATUS[subscription.status] ?? 'canceled';
  const firstPaymentMissing = status === 'incomplete' || status === 'incomplete_expired';
  const trialing = subscription.status === 'trialing';
  const validUntil = firstPaymentMissing
    ? previous.validUntil
    : status === 'canceled'
      ? (subscription.endedAt ?? subscription.currentPeriodEnd)
      : trialing
        ? (subscription.trialEnd ?? subscription.currentPeriodEnd)
        : subscription.currentPeriodEnd;
  return {
    subscriptionStatus: status,
    validUntil,
    planInterval: subscription.interval,
    canceled: status === 'canceled' || subscription.cancelAtPeriodEnd,
    trialing,
  };
}
