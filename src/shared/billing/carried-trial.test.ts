import { describe, expect, it } from 'vitest';
import { carriedTrialEnd, MIN_CARRIED_TRIAL_MS } from './carried-trial.ts';
import type { PaymentState } from './subscription-status.ts';

const HOUR = 3_600_000;
const trialEnd = new Date('2026-12-13T10:00:00.000Z');
const payment = (overrides: Partial<PaymentState> = {}): PaymentState => ({
  validUntil: trialEnd.toISOString(),
  subscriptionStatus: 'trial',
  plan: { interval: null },
  canceled: false,
  trialing: false,
  ...overrides,
});
const leftUntilEnd = (ms: number) => new Date(trialEnd.getTime() - ms);

describe('carriedTrialEnd', () => {
  it('keeps the trial: its end is the first charge', () => {
    expect(carriedTrialEnd(payment(), leftUntilEnd(10 * 24 * HOUR))).toEqual(trialEnd);
    expect(carriedTrialEnd(payment(), leftUntilEnd(MIN_CARRIED_TRIAL_MS))).toEqual(trialEnd);
  });

  it('asks Stripe for no less than its 48 hours, with an hour to spare', () => {
    expect(MIN_CARRIED_TRIAL_MS).toBe(49 * HOUR);
    expect(carriedTrialEnd(payment(), leftUntilEnd(MIN_CARRIED_TRIAL_MS - 1))).toBeNull();
  });

  it('keeps nothing once the trial has ended', () => {
    expect(carriedTrialEnd(payment(), leftUntilEnd(0))).toBeNull();
    expect(carriedTrialEnd(payment(), leftUntilEnd(-HOUR))).toBeNull();
  });

  it.each(['active', 'canceled', 'incomplete', 'past_due'] as const)(
    'keeps nothing for status %s',
    (status) => {
      expect(
        carriedTrialEnd(payment({ subscriptionStatus: status }), leftUntilEnd(10 * 24 * HOUR)),
      ).toBeNull();
    },
  );
});
