import { DomainError, NotFoundError } from '../shared/domain-errors.ts';

/** What the product needs from a payment provider (Stripe, or its emulator in sandbox mode). */
export type SubscriptionSnapshot = {
  id: string;
  /** The provider's status: incomplete, incomplete_expired, trialing, active, past_due, canceled, unpaid, paused. */
  status: string;
  interval: 'month' | 'year' | null;
  currentPeriodEnd: Date;
  /** When a trial ends (or ended) and the first charge is due; null without a trial. */
  trialEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
};

export type BillingWebhookEvent = {
  id: string;
  type: string;
  customerId: string | null;
  /** The app user id a Checkout Session was opened for (checkout events only). */
  clientReferenceId: string | null;
};

export type BillingGateway = {
  createCustomer(input: { userId: string; email: string; name: string }): Promise<string>;
  createCheckoutSession(input: {
    customerId: string;
    userId: string;
    lookupKey: string;
    successUrl: string;
    cancelUrl: string;
    /** The subscription's first charge when it starts in a trial (the user's own, carried over); else null: at once. */
    trialEnd: Date | null;
  }): Promise<string>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<string>;
  createPaymentIntent(input: { customerId: string; lookupKey: string }): Promise<string>;
  /** Throws CheckoutNotFoundError when the provider knows no session of that id. */
  readCheckoutSession(id: string): Promise<{ customerId: string | null; clientReferenceId: string | null }>;
  /** The customer's subscription that matters most: a live one before an ended one, then the newest. */
  readSubscription(customerId: string): Promise<SubscriptionSnapshot | null>;
  /** Verifies signature and timestamp; throws InvalidSignatureError on a forged or stale event. */
  verifyWebhook(rawBody: Buffer, signature: string): BillingWebhookEvent;
};

/**
 * The payment provider failed a call or answered what we cannot use (down, refused our request, no
 * price for a plan). The message says which call, for the log; the provider's own words are the cause,
 * logged and never shown: the user reads the errors plugin's sentence. Every provider failure the
 * gateway meets ends as this error or one of the other domain errors its methods name.
 */
export class BillingUnavailableError extends DomainError {}

/** The checkout the request names does not exist at the payment provider. */
export class CheckoutNotFoundError extends NotFoundError {
  constructor(options?: { cause?: unknown }) {
    super('This checkout was not found.', options);
  }
}
