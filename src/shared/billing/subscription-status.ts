import type { SubscriptionStatus } from '../api/current-user.schema.ts';
import { countOf } from '../text/count-of.ts';

/** The payment part of a user (docs/product-rules.md §3), with `validUntil` as an ISO instant. */
export type PaymentState = {
  validUntil: string;
  subscriptionStatus: SubscriptionStatus;
  plan: { interval: 'month' | 'year' | null };
  canceled: boolean;
  /** A paid plan still in the free trial it was bought in: nothing charged yet, the first charge is on `validUntil`. */
  trialing: boolean;
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const INCOMPLETE: readonly SubscriptionStatus[] = ['incomplete', 'incomplete_expired', 'past_due', 'unpaid'];

export function isIncomplete(status: SubscriptionStatus): boolean {
  return INCOMPLETE.includes(status);
}

/** Whether the user may sync now: a running trial or subscription, including the grace of an incomplete one. */
export function isEntitled(payment: PaymentState, now: Date): boolean {
  return Date.parse(payment.validUntil) > now.getTime();
}

/** 'in 3 days', or in hours under one day: 'in 5 hours', 'in 1 hour'. */
export function timeLeft(until: string, now: Date): string {
  const left = Date.parse(until) - now.getTime();
  if (left >= DAY_MS) {
    const days = Math.floor(left / DAY_MS);
    return countOf(days, 'day');
  }
  const hours = Math.max(1, Math.ceil(left / HOUR_MS));
  return countOf(hours, 'hour');
}

export type SubscriptionBanner = { severity: 'warning' | 'error'; message: string };

/** The dashboard's subscription banner (docs/product-rules.md §4), or null when nothing needs saying. */
export function subscriptionBanner(payment: PaymentState, now: Date): SubscriptionBanner | null {
  const ended = !isEntitled(payment, now);
  const status = payment.subscriptionStatus;
  if (status === 'trial') {
    return ended
      ? { severity: 'error', message: 'Your free trial has ended' }
      : { severity: 'warning', message: `Your free trial will end in ${timeLeft(payment.validUntil, now)}` };
  }
  if (isIncomplete(status)) {
    return ended
      ? { severity: 'error', message: 'Your subscription is incomplete and has ended' }
      : {
          severity: 'warning',
          message: `Your subscription is incomplete and will end in ${timeLeft(payment.validUntil, now)}`,
        };
  }
  return ended ? { severity: 'error', message: 'Your subscription has ended' } : null;
}

export type ProfileSubscription = {
  plan: string;
  badge: string | null;
  /** 'Trial ends on', 'First charge on' etc., followed by the date of `validUntil`; null when no date is shown. */
  dateLabel: string | null;
  action: 'Manage your Subscription' | 'Upgrade';
};

/** The profile's subscription card (docs/product-rules.md §2 Profile and §4 profile labels). */
export function profileSubscription(payment: PaymentState): ProfileSubscription {
  const status = payment.subscriptionStatus;
  if (status === 'trial') {
    return { plan: 'Free Trial', badge: 'trial', dateLabel: 'Trial ends on', action: 'Upgrade' };
  }
  if (status === 'active') {
    return {
      plan: payment.plan.interval === 'year' ? 'Yearly Subscription' : 'Monthly Subscription',
      badge: payment.canceled ? 'canceled' : 'active',
      // Upgraded in the trial: the plan runs, and its first charge comes when the trial would have ended.
      dateLabel: payment.canceled
        ? 'Subscription ends on'
        : payment.trialing
          ? 'First charge on'
          : 'Subscription is renewed on',
      action: 'Manage your Subscription',
    };
  }
  if (isIncomplete(status)) {
    return {
      plan: 'Incomplete Subscription',
      badge: status,
      dateLabel: 'Subscription ends on',
      action: 'Upgrade',
    };
  }
  return { plan: 'No active Subscription', badge: null, dateLabel: null, action: 'Upgrade' };
}
