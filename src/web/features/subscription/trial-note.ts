import { PLANS } from '#shared/api/payment.schema.ts';
import { carriedTrialEnd } from '#shared/billing/carried-trial.ts';
import type { PaymentState } from '#shared/billing/subscription-status.ts';
import { formatProfileDate } from '../../lib/format-date.ts';

/**
 * What the upgrade modal says while upgrading keeps the trial (docs/product-rules.md §4): when the first
 * charge of the chosen plan happens. Null after the trial, or too close to its end for Stripe to keep it.
 */
export function trialNote(payment: PaymentState, interval: keyof typeof PLANS, now: Date): string | null {
  const end = carriedTrialEnd(payment, now);
  if (!end) return null;
  return `Your free trial continues: the first charge of ${PLANS[interval].price} is on ${formatProfileDate(end.toISOString())}.`;
}
