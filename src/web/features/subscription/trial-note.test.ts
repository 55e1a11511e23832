import { describe, expect, it } from 'vitest';
import type { PaymentState } from '#shared/billing/subscription-status.ts';
import { trialNote } from './trial-note.ts';

const DAY = 86_400_000;
// Midday UTC: the same calendar day in every time zone the tests may run in.
const trialEnd = '2026-12-13T12:00:00.000Z';
const payment = (overrides: Partial<PaymentState> = {}): PaymentState => ({
  validUntil: trialEnd,
  subscriptionStatus: 'trial',
  plan: { interval: null },
  canceled: false,
  trialing: false,
  ...overrides,
});
const daysBefore = (days: number) => new Date(Date.parse(trialEnd) - days * DAY);

describe('trialNote', () => {
  it('names the first charge of the chosen plan and the day the trial ends', () => {
    expect(trialNote(payment(), 'month', daysBefore(10))).toBe(
      'Your free trial continues: the first charge of $3 is on December 13th 2026.',
    );
    expect(trialNote(payment(), 'year', daysBefore(10))).toBe(
      'Your free trial continues: the first charge of $24 is on December 13th 2026.',
    );
  });

  it('says nothing once the trial has ended, or with too little of it left to keep', () => {
    expect(trialNote(payment(), 'month', daysBefore(-1))).toBeNull();
    expect(trialNote(payment(), 'month', daysBefore(1))).toBeNull();
  });

  it('says nothing for a user who is not in the trial', () => {
    expect(trialNote(payment({ subscriptionStatus: 'canceled' }), 'month', daysBefore(10))).toBeNull();
    expect(trialNote(payment({ subscriptionStatus: 'incomplete' }), 'month', daysBefore(10))).toBeNull();
  });
});
