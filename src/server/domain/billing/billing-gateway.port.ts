import { NamedError } from '../shared/domain-errors.ts';

/** What the product needs from a payment provider (Stripe, or its emulator in sandbox mode). */
export type SubscriptionSnapshot = {
  id: string;
  /** The provider's status: incomplete, incomplete_expired, trialing, active, past_due, canceled, unpaid, paused. */
  status: string;
  interval: 'month' | 'year' | null;
  currentPeriodEnd: Date;
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
  }): Promise<string>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<string>;
  createPaymentIntent(input: { customerId: string; lookupKey: string }): Promise<string>;
  readCheckoutSession(id: string): Promise<{ customerId: string | null; clientReferenceId: string | null }>;
  /** The customer's subscription that matters most: a live one before an ended one, then the newest. */
  readSubscription(customerId: string): Promise<SubscriptionSnapshot | null>;
  /** Verifies signature and timestamp; throws on a forged or stale event. */
  verifyWebhook(rawBody: Buffer, signature: string): BillingWebhookEvent;
};

export class BillingUnavailableError extends NamedError {}
