import type { CardDecline } from './stripe.payment-intent-object.ts';

export type StoredCard = {
  paymentMethod: string;
  brand: string;
  last4: string;
  /** Stripe's 4000 0000 0000 0341: attaching works, every later charge is declined. */
  failsCharges: boolean;
};

export type CardCheck =
  | { ok: true; brand: string; last4: string; failsCharges: boolean }
  | { ok: false; decline: CardDecline };

const GENERIC_DECLINE: CardDecline = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};

/** Stripe's test cards that fail at once (at Checkout). */
const DECLINED_NOW: Record<string, CardDecline> = {
  '4000000000000002': GENERIC_DECLINE,
  '4000000000009995': {
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': {
    code: 'expired_card',
    declineCode: 'expired_card',
    message: 'Your card has expired.',
  },
  '4000000000000127': {
    code: 'incorrect_cvc',
    declineCode: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
};

export const FAILING_CHARGE_CARD = '4000000000000341';

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  if (/^5[1-5]|^2[2-7]/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}

/** What a card number typed on the hosted Checkout page leads to. */
export function checkCard(number: string): CardCheck {
  const digits = number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    return {
      ok: false,
      decline: {
        code: 'invalid_number',
        declineCode: 'invalid_number',
        message: 'Your card number is invalid.',
      },
    };
  }
  const decline = DECLINED_NOW[digits];
  if (decline) return { ok: false, decline };
  return {
    ok: true,
    brand: brandOf(digits),
    last4: digits.slice(-4),
    failsCharges: digits === FAILING_CHARGE_CARD,
  };
}

export function chargeDecline(card: StoredCard | undefined): CardDecline | undefined {
  if (!card) {
    return {
      code: 'payment_intent_payment_attempt_failed',
      declineCode: 'no_payment_method',
      message: 'The customer has no payment method to charge.',
    };
  }
  return card.failsCharges ? GENERIC_DECLINE : undefined;
}
