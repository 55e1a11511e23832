import { describe, expect, it } from 'vitest';
import type { SubscriptionSnapshot } from './billing-gateway.port.ts';
import { paymentFromSubscription, type StoredPayment } from './payment-from-subscription.ts';

const trialEnd = new Date('2026-12-01T00:00:00Z');
const periodEnd = new Date('2027-01-10T00:00:00Z');
const previous: StoredPayment = {
  subscriptionStatus: 'trial',
  validUntil: trialEnd,
  planInterval: null,
  canceled: false,
  trialing: false,
};
const subscription = (overrides: Partial<SubscriptionSnapshot>): SubscriptionSnapshot => ({
  id: 'sub_1',
  status: 'active',
  interval: 'month',
  currentPeriodEnd: periodEnd,
  trialEnd: null,
  cancelAtPeriodEnd: false,
  endedAt: null,
  ...overrides,
});

describe('paymentFromSubscription', () => {
  it('runs an active subscription until the end of its period', () => {
    expect(paymentFromSubscription(subscription({ interval: 'year' }), previous)).toEqual({
      subscriptionStatus: 'active',
      validUntil: periodEnd,
      planInterval: 'year',
      canceled: false,
      trialing: false,
    });
  });

  it('makes a subscription bought in the trial the paid plan, first charged when the trial ends', () => {
    const trialing = subscription({ status: 'trialing', currentPeriodEnd: trialEnd, trialEnd });
    expect(paymentFromSubscription(trialing, previous)).toEqual({
      subscriptionStatus: 'active',
      validUntil: trialEnd,
      planInterval: 'month',
      canceled: false,
      trialing: true,
    });
    // The trial's end is the date even where the period would say otherwise.
    expect(
      paymentFromSubscription({ ...trialing, currentPeriodEnd: periodEnd }, previous).validUntil,
    ).toEqual(trialEnd);
    expect(paymentFromSubscription({ ...trialing, cancelAtPeriodEnd: true }, previous)).toMatchObject({
      validUntil: trialEnd,
      canceled: true,
      trialing: true,
    });
  });

  it('is no longer trialing once the first charge made it active', () => {
    const charged = subscription({ status: 'active', trialEnd });
    expect(paymentFromSubscription(charged, { ...previous, trialing: true })).toMatchObject({
      subscriptionStatus: 'active',
      validUntil: periodEnd,
      trialing: false,
    });
    expect(paymentFromSubscription(subscription({ status: 'past_due', trialEnd }), previous).trialing).toBe(
      false,
    );
  });

  it('marks a subscription canceled at period end, still running until then', () => {
    expect(paymentFromSubscription(subscription({ cancelAtPeriodEnd: true }), previous)).toMatchObject({
      subscriptionStatus: 'active',
      validUntil: periodEnd,
      canceled: true,
    });
  });

  it('ends a canceled subscription when it ended', () => {
    const endedAt = new Date('2026-12-20T00:00:00Z');
    expect(paymentFromSubscription(subscription({ status: 'canceled', endedAt }), previous)).toMatchObject({
      subscriptionStatus: 'canceled',
      validUntil: endedAt,
      canceled: true,
    });
  });

  it('keeps the trial end while the first payment is missing', () => {
    for (const status of ['incomplete', 'incomplete_expired']) {
      expect(paymentFromSubscription(subscription({ status }), previous)).toMatchObject({
        subscriptionStatus: status,
        validUntil: trialEnd,
      });
    }
  });

  it('keeps a failing renewal running until the end of its period', () => {
    expect(paymentFromSubscription(subscription({ status: 'past_due' }), previous)).toMatchObject({
      subscriptionStatus: 'past_due',
      validUntil: periodEnd,
    });
    expect(paymentFromSubscription(subscription({ status: 'unpaid' }), previous).subscriptionStatus).toBe(
      'unpaid',
    );
  });

  it('treats a trialing or paused subscription as active or canceled', () => {
    expect(paymentFromSubscription(subscription({ status: 'trialing' }), previous).subscriptionStatus).toBe(
      'active',
    );
    expect(paymentFromSubscription(subscription({ status: 'paused' }), previous).subscriptionStatus).toBe(
      'canceled',
    );
  });
});
