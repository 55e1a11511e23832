import type { PaymentState } from './subscription-status.ts';

const HOUR_MS = 3_600_000;

/**
 * Stripe takes a Checkout Session's `subscription_data.trial_end` only when it is "at least 48 hours in
 * the future" (https://docs.stripe.com/api/checkout/sessions/create#create_checkout_session-subscription_data-trial_end;
 * the SDK's `SessionCreateParams.SubscriptionData.trial_end` says the same). The extra hour keeps a
 * session created right at the limit from being refused over the two clocks' drift.
 */
export const MIN_CARRIED_TRIAL_MS = 49 * HOUR_MS;

/**
 * When upgrading now keeps the free trial: the trial's end, which becomes the subscription's first charge
 * (docs/product-rules.md §4). Null once the trial has ended, for any other status, and when less is left
 * than Stripe accepts: then the first charge is at once, and the hours left of the trial are not kept.
 */
export function carriedTrialEnd(payment: PaymentState, now: Date): Date | null {
  if (payment.subscriptionStatus !== 'trial') return null;
  const end = Date.parse(payment.validUntil);
  return end - now.getTime() >= MIN_CARRIED_TRIAL_MS ? new Date(end) : null;
}
