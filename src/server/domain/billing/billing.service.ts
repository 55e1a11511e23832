import type { UserRow } from '#server/db/schema/users.table.ts';
import type { SubscriptionStatus } from '#shared/api/current-user.schema.ts';
import { LOOKUP_KEYS } from '#shared/api/payment.schema.ts';
import { carriedTrialEnd } from '#shared/billing/carried-trial.ts';
import type { Clock } from '../shared/clock.port.ts';
import {
  DomainError,
  InvalidSignatureError,
  NotConfiguredError,
  NotFoundError,
  UnknownUserError,
} from '../shared/domain-errors.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { BillingGateway, BillingWebhookEvent } from './billing-gateway.port.ts';
import { paymentFromSubscription } from './payment-from-subscription.ts';
import { paymentStateOf, planIntervalOf } from './payment-state.ts';
import type { StripeEventRepository } from './stripe-event.repository.ts';

type Deps = {
  users: UserRepository;
  events: StripeEventRepository;
  /** Null when payments are not configured. */
  gateway: BillingGateway | null;
  appUrl: string;
  clock: Clock;
};

export type WebhookOutcome = 'applied' | 'duplicate' | 'unmatched';

export type BillingService = ReturnType<typeof createBillingService>;

export function createBillingService(deps: Deps) {
  const gateway = () => {
    if (!deps.gateway) throw new NotConfiguredError('payments');
    return deps.gateway;
  };
  const userOrThrow = async (userId: string) => {
    const user = await deps.users.findById(userId);
    if (!user) throw new UnknownUserError();
    return user;
  };

  async function ensureCustomer(user: UserRow): Promise<string> {
    if (user.stripeCustomerId) return user.stripeCustomerId;
    const created = await gateway().createCustomer({
      userId: user.id,
      email: user.email,
      name: user.displayName,
    });
    return (await deps.users.linkStripeCustomer(user.id, created, deps.clock())) ?? created;
  }

  /** Re-reads the customer's subscription from the provider and stores what it says. */
  async function refresh(user: UserRow): Promise<UserRow> {
    if (!user.stripeCustomerId) return user;
    const subscription = await gateway().readSubscription(user.stripeCustomerId);
    if (!subscription) return user;
    const payment = paymentFromSubscription(subscription, {
      subscriptionStatus: user.subscriptionStatus as SubscriptionStatus,
      validUntil: user.validUntil,
      planInterval: planIntervalOf(user.planInterval),
      canceled: user.canceled,
      trialing: user.trialing,
    });
    await deps.users.updatePayment(
      user.id,
      { ...payment, stripeSubscriptionId: subscription.id },
      deps.clock(),
    );
    return { ...user, ...payment, stripeSubscriptionId: subscription.id };
  }

  return {
    async createCustomer(userId: string): Promise<UserRow> {
      const user = await userOrThrow(userId);
      return { ...user, stripeCustomerId: await ensureCustomer(user) };
    },

    /**
     * Where the upgrade form sends the browser: Checkout, or the portal for an existing subscription. While
     * the trial runs, the subscription starts in it and is first charged when it ends.
     */
    async checkoutUrl(userId: string, lookupKey: string): Promise<string> {
      const user = await userOrThrow(userId);
      const customerId = await ensureCustomer(user);
      const now = deps.clock();
      if (user.subscriptionStatus === 'active' && user.validUntil > now) {
        return gateway().createPortalSession({ customerId, returnUrl: `${deps.appUrl}/profile` });
      }
      return gateway().createCheckoutSession({
        customerId,
        userId,
        lookupKey,
        successUrl: `${deps.appUrl}/subscriptionsuccess?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${deps.appUrl}/profile`,
        trialEnd: carriedTrialEnd(paymentStateOf(user), now),
      });
    },

    async portalUrl(userId: string): Promise<string> {
      const user = await userOrThrow(userId);
      const customerId = await ensureCustomer(user);
      return gateway().createPortalSession({ customerId, returnUrl: `${deps.appUrl}/profile` });
    },

    async createPaymentIntent(userId: string): Promise<string> {
      const user = await userOrThrow(userId);
      return gateway().createPaymentIntent({
        customerId: await ensureCustomer(user),
        lookupKey: LOOKUP_KEYS.month,
      });
    },

    /** Back from Checkout: apply the outcome now instead of waiting for the webhook. */
    async completeCheckout(userId: string, sessionId: string): Promise<UserRow> {
      const user = await userOrThrow(userId);
      const session = await gateway().readCheckoutSession(sessionId);
      const ours =
        session.clientReferenceId === user.id ||
        (!!session.customerId && session.customerId === user.stripeCustomerId);
      if (!ours) throw new NotFoundError('This checkout does not belong to your account.');
      if (session.customerId && !user.stripeCustomerId)
        await deps.users.linkStripeCustomer(user.id, session.customerId, deps.clock());
      return refresh(await userOrThrow(userId));
    },

    /** Checks a Stripe webhook's signature and timestamp; what it names is applied by a worker. */
    verifyWebhook(rawBody: Buffer, signature: string): BillingWebhookEvent {
      try {
        return gateway().verifyWebhook(rawBody, signature);
      } catch (error) {
        if (error instanceof DomainError) throw error;
        throw new InvalidSignatureError('The webhook signature is not valid.', { cause: error });
      }
    },

    /**
     * A webhook is only a nudge: the subscription is re-read from the provider, so duplicates and any
     * order of delivery end in the provider's current state. Returns the user it concerned.
     */
    async applyWebhook(
      event: BillingWebhookEvent,
    ): Promise<{ outcome: WebhookOutcome; userId: string | null }> {
      if (await deps.events.wasProcessed(event.id)) return { outcome: 'duplicate', userId: null };
      let user = event.customerId ? await deps.users.findByStripeCustomerId(event.customerId) : undefined;
      if (!user && event.clientReferenceId && event.customerId) {
        const candidate = await deps.users.findById(event.clientReferenceId);
        if (candidate && !candidate.stripeCustomerId) {
          await deps.users.linkStripeCustomer(candidate.id, event.customerId, deps.clock());
          user = await deps.users.findById(candidate.id);
        }
      }
      if (user) await refresh(user);
      // Recorded only after applying: a crash in between means a redelivery applies it again, harmlessly.
      await deps.events.markProcessed(event.id, event.type, deps.clock());
      return { outcome: user ? 'applied' : 'unmatched', userId: user?.id ?? null };
    },
  };
}
