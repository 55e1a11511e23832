import { describe, expect, it } from 'vitest';
import {
  isEntitled,
  type PaymentState,
  profileSubscription,
  subscriptionBanner,
  timeLeft,
} from './subscription-status.ts';

const now = new Date('2026-11-22T12:00:00Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const payment = (overrides: Partial<PaymentState>): PaymentState => ({
  validUntil: at(10 * DAY),
  subscriptionStatus: 'trial',
  plan: { interval: null },
  canceled: false,
  trialing: false,
  ...overrides,
});

describe('timeLeft', () => {
  it('counts whole days from one day on', () => {
    expect(timeLeft(at(14 * DAY), now)).toBe('14 days');
    expect(timeLeft(at(DAY + 23 * HOUR), now)).toBe('1 day');
    expect(timeLeft(at(2 * DAY), now)).toBe('2 days');
  });
  it('counts hours under a day, never zero', () => {
    expect(timeLeft(at(23 * HOUR + 30 * 60_000), now)).toBe('24 hours');
    expect(timeLeft(at(5 * HOUR), now)).toBe('5 hours');
    expect(timeLeft(at(30 * 60_000), now)).toBe('1 hour');
  });
});

describe('subscriptionBanner', () => {
  it('warns while the trial runs, in days or hours', () => {
    expect(subscriptionBanner(payment({ validUntil: at(14 * DAY) }), now)).toEqual({
      severity: 'warning',
      message: 'Your free trial will end in 14 days',
    });
    expect(subscriptionBanner(payment({ validUntil: at(3 * HOUR) }), now)?.message).toBe(
      'Your free trial will end in 3 hours',
    );
  });
  it('says the trial has ended', () => {
    expect(subscriptionBanner(payment({ validUntil: at(-1) }), now)).toEqual({
      severity: 'error',
      message: 'Your free trial has ended',
    });
  });
  it('is silent for a running subscription, canceled at period end or not', () => {
    expect(
      subscriptionBanner(payment({ subscriptionStatus: 'active', plan: { interval: 'month' } }), now),
    ).toBeNull();
    expect(subscriptionBanner(payment({ subscriptionStatus: 'active', canceled: true }), now)).toBeNull();
  });
  it.each(['active', 'canceled'] as const)('says a %s subscription past its date has ended', (status) => {
    expect(subscriptionBanner(payment({ subscriptionStatus: status, validUntil: at(-DAY) }), now)).toEqual({
      severity: 'error',
      message: 'Your subscription has ended',
    });
  });
  it.each(['incomplete', 'incomplete_expired', 'past_due', 'unpaid'] as const)(
    'warns about an %s subscription, then says it has ended',
    (status) => {
      expect(
        subscriptionBanner(payment({ subscriptionStatus: status, validUntil: at(2 * DAY + HOUR) }), now),
      ).toEqual({
        severity: 'warning',
        message: 'Your subscription is incomplete and will end in 2 days',
      });
      expect(subscriptionBanner(payment({ subscriptionStatus: status, validUntil: at(-HOUR) }), now)).toEqual(
        {
          severity: 'error',
          message: 'Your subscription is incomplete and has ended',
        },
      );
    },
  );
});

describe('profileSubscription', () => {
  it('shows the free trial', () => {
    expect(profileSubscription(payment({}))).toEqual({
      plan: 'Free Trial',
      badge: 'trial',
      dateLabel: 'Trial ends on',
      action: 'Upgrade',
    });
  });
  it('shows a monthly or yearly subscription that renews, and one that ends', () => {
    expect(
      profileSubscription(payment({ subscriptionStatus: 'active', plan: { interval: 'month' } })),
    ).toEqual({
      plan: 'Monthly Subscription',
      badge: 'active',
      dateLabel: 'Subscription is renewed on',
      action: 'Manage your Subscription',
    });
    expect(
      profileSubscription(
        payment({ subscriptionStatus: 'active', plan: { interval: 'year' }, canceled: true }),
      ),
    ).toEqual({
      plan: 'Yearly Subscription',
      badge: 'canceled',
      dateLabel: 'Subscription ends on',
      action: 'Manage your Subscription',
    });
  });
  it('shows a plan bought in the trial as active, with its first charge at the trial end', () => {
    const bought = payment({ subscriptionStatus: 'active', plan: { interval: 'month' }, trialing: true });
    expect(profileSubscription(bought)).toEqual({
      plan: 'Monthly Subscription',
      badge: 'active',
      dateLabel: 'First charge on',
      action: 'Manage your Subscription',
    });
    // Canceled before the first charge: it ends then, and nothing is charged.
    expect(profileSubscription({ ...bought, canceled: true })).toMatchObject({
      badge: 'canceled',
      dateLabel: 'Subscription ends on',
    });
    expect(subscriptionBanner(bought, now)).toBeNull();
  });
  it.each(['incomplete', 'incomplete_expired', 'past_due', 'unpaid'] as const)(
    'shows an %s subscription',
    (status) => {
      expect(profileSubscription(payment({ subscriptionStatus: status }))).toEqual({
        plan: 'Incomplete Subscription',
        badge: status,
        dateLabel: 'Subscription ends on',
        action: 'Upgrade',
      });
    },
  );
  it('shows no subscription once canceled, without a date', () => {
    expect(profileSubscription(payment({ subscriptionStatus: 'canceled' }))).toEqual({
      plan: 'No active Subscription',
      badge: null,
      dateLabel: null,
      action: 'Upgrade',
    });
  });
});

describe('isEntitled', () => {
  it('allows sync until validUntil, for every status', () => {
    expect(isEntitled(payment({ validUntil: at(HOUR) }), now)).toBe(true);
    expect(isEntitled(payment({ validUntil: at(0) }), now)).toBe(false);
    expect(isEntitled(payment({ subscriptionStatus: 'past_due', validUntil: at(HOUR) }), now)).toBe(true);
  });
});
