import { describe, expect, it } from 'vitest';
import { failure } from '#server/test/refusal.ts';
import { LOOKUP_KEYS } from '#shared/api/payment.schema.ts';
import {
  InvalidSignatureError,
  NotConfiguredError,
  NotFoundError,
  UnknownUserError,
} from '../shared/domain-errors.ts';
import { fakeClock } from '../testing/fake-clock.ts';
import { inMemoryStripeEvents } from '../testing/in-memory-stripe-events.ts';
import { inMemoryUsers, userRow } from '../testing/in-memory-users.ts';
import { createBillingService } from './billing.service.ts';
import type { BillingGateway, BillingWebhookEvent, SubscriptionSnapshot } from './billing-gateway.port.ts';

const APP = 'https://app.test';
const NOW = '2026-03-02T09:00:00.000Z';
const PERIOD_END = new Date('2026-04-02T09:00:00.000Z');
/** The trial end of the users of `userRow`, 12 days and 15 hours after NOW. */
const TRIAL_END = new Date('2026-03-15T00:00:00.000Z');
const HOUR_MS = 3_600_000;

/** A payment provider that remembers what it was asked and answers from what the test put in it. */
function fakeGateway() {
  const calls: { method: string; input: unknown }[] = [];
  const state = {
    subscriptions: new Map<string, SubscriptionSnapshot>(),
    sessions: new Map<string, { customerId: string | null; clientReferenceId: string | null }>(),
    customers: 0,
    validSignature: 'good',
  };
  const gateway: BillingGateway = {
    async createCustomer(input) {
      calls.push({ method: 'createCustomer', input });
      state.customers += 1;
      return `cus_${state.customers}`;
    },
    async createCheckoutSession(input) {
      calls.push({ method: 'createCheckoutSession', input });
      return 'https://checkout.test/session';
    },
    async createPortalSession(input) {
      calls.push({ method: 'createPortalSession', input });
      return 'https://billing.test/portal';
    },
    async createPaymentIntent(input) {
      calls.push({ method: 'createPaymentIntent', input });
      return 'pi_secret';
    },
    async readCheckoutSession(id) {
      const session = state.sessions.get(id);
      if (!session) throw new Error('no such session');
      return session;
    },
    readSubscription: async (customerId) => state.subscriptions.get(customerId) ?? null,
    verifyWebhook(rawBody, signature) {
      if (signature !== state.validSignature) throw new Error('signature mismatch');
      return JSON.parse(rawBody.toString()) as BillingWebhookEvent;
    },
  };
  return { gateway, calls, state };
}

const activeSubscription = (overrides: Partial<SubscriptionSnapshot> = {}): SubscriptionSnapshot => ({
  id: 'sub_1',
  status: 'active',
  interval: 'month',
  currentPeriodEnd: PERIOD_END,
  trialEnd: null,
  cancelAtPeriodEnd: false,
  endedAt: null,
  ...overrides,
});

function setup(options: { configured?: boolean } = {}) {
  const clock = fakeClock(NOW);
  const users = inMemoryUsers(
    userRow({ id: 'u1', email: 'ada@example.com', displayName: 'Ada Lovelace' }),
    userRow({ id: 'u2', googleId: 'google-u2', stripeCustomerId: 'cus_existing' }),
  );
  const events = inMemoryStripeEvents();
  const provider = fakeGateway();
  const billing = createBillingService({
    users,
    events,
    gateway: (options.configured ?? true) ? provider.gateway : null,
    appUrl: APP,
    clock,
  });
  return { billing, users, events, provider, clock };
}

describe('billing service: customers and hosted pages', () => {
  it('creates the provider customer once and links it, stamped with the clock', async () => {
    const { billing, users, provider } = setup();
    const user = await billing.createCustomer('u1');
    expect(user.stripeCustomerId).toBe('cus_1');
    expect(users.rows.get('u1')).toMatchObject({ stripeCustomerId: 'cus_1', updatedAt: new Date(NOW) });
    expect(provider.calls).toEqual([
      { method: 'createCustomer', input: { userId: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' } },
    ]);
    await billing.createCustomer('u1');
    expect(provider.calls).toHaveLength(1);
  });

  it('keeps the customer another request linked first', async () => {
    const { billing, users } = setup();
    // Between reading the user and linking, another request linked its own customer.
    const original = users.linkStripeCustomer;
    users.linkStripeCustomer = async (id, _customerId, now) => original(id, 'cus_other', now);
    expect((await billing.createCustomer('u1')).stripeCustomerId).toBe('cus_other');
    expect(users.rows.get('u1')?.stripeCustomerId).toBe('cus_other');
  });

  it('sends a user in the trial to Checkout for the chosen plan, first charged when the trial ends', async () => {
    const { billing, provider } = setup();
    expect(await billing.checkoutUrl('u2', LOOKUP_KEYS.year)).toBe('https://checkout.test/session');
    expect(provider.calls).toEqual([
      {
        method: 'createCheckoutSession',
        input: {
          customerId: 'cus_existing',
          userId: 'u2',
          lookupKey: LOOKUP_KEYS.year,
          successUrl: `${APP}/subscriptionsuccess?session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${APP}/profile`,
          trialEnd: TRIAL_END,
        },
      },
    ]);
  });

  it('charges at once when the trial has ended, has less left than Stripe accepts, or was never the status', async () => {
    const trialEndOf = async (overrides: Partial<ReturnType<typeof userRow>>, now = NOW) => {
      const { billing, users, provider, clock } = setup();
      users.rows.set('u2', { ...(users.rows.get('u2') ?? userRow()), ...overrides });
      clock.set(now);
      await billing.checkoutUrl('u2', LOOKUP_KEYS.month);
      const [call] = provider.calls.filter((made) => made.method === 'createCheckoutSession');
      return (call?.input as { trialEnd: Date | null } | undefined)?.trialEnd;
    };
    const fromEnd = (hours: number) => new Date(TRIAL_END.getTime() - hours * HOUR_MS).toISOString();
    expect(await trialEndOf({}, fromEnd(49))).toEqual(TRIAL_END);
    expect(await trialEndOf({}, fromEnd(48.9))).toBeNull();
    expect(await trialEndOf({}, fromEnd(-1))).toBeNull();
    expect(await trialEndOf({ subscriptionStatus: 'canceled' })).toBeNull();
    expect(await trialEndOf({ subscriptionStatus: 'incomplete' })).toBeNull();
  });

  it('sends a subscriber whose period is still running to the portal instead, by the clock', async () => {
    const { billing, users, provider, clock } = setup();
    users.rows.set('u2', {
      ...(users.rows.get('u2') ?? userRow()),
      subscriptionStatus: 'active',
      validUntil: PERIOD_END,
    });
    expect(await billing.checkoutUrl('u2', LOOKUP_KEYS.month)).toBe('https://billing.test/portal');
    expect(provider.calls.map((call) => call.method)).toEqual(['createPortalSession']);

    clock.set('2026-04-02T09:00:00.000Z'); // the period ends now: subscribing again goes through Checkout
    expect(await billing.checkoutUrl('u2', LOOKUP_KEYS.month)).toBe('https://checkout.test/session');
  });

  it('opens the portal and creates payment intents for the monthly plan', async () => {
    const { billing, provider } = setup();
    expect(await billing.portalUrl('u2')).toBe('https://billing.test/portal');
    expect(await billing.createPaymentIntent('u2')).toBe('pi_secret');
    expect(provider.calls).toEqual([
      { method: 'createPortalSession', input: { customerId: 'cus_existing', returnUrl: `${APP}/profile` } },
      { method: 'createPaymentIntent', input: { customerId: 'cus_existing', lookupKey: LOOKUP_KEYS.month } },
    ]);
  });

  it('refuses every payment call when payments are not configured', async () => {
    const { billing } = setup({ configured: false });
    const error = await failure(billing.portalUrl('u1'));
    expect(error).toBeInstanceOf(NotConfiguredError);
    expect(error).toHaveProperty('feature', 'payments');
  });

  it('answers a user who no longer exists as unknown', async () => {
    const { billing } = setup();
    expect(await failure(billing.checkoutUrl('gone', LOOKUP_KEYS.month))).toBeInstanceOf(UnknownUserError);
  });
});

describe('billing service: back from Checkout', () => {
  it('links the customer of a session opened for the user and stores the subscription', async () => {
    const { billing, users, provider } = setup();
    provider.state.sessions.set('cs_1', { customerId: 'cus_9', clientReferenceId: 'u1' });
    provider.state.subscriptions.set('cus_9', activeSubscription({ cancelAtPeriodEnd: true }));
    const user = await billing.completeCheckout('u1', 'cs_1');
    const expected = {
      stripeCustomerId: 'cus_9',
      stripeSubscriptionId: 'sub_1',
      subscriptionStatus: 'active',
      validUntil: PERIOD_END,
      planInterval: 'month',
      canceled: true,
    };
    expect(user).toMatchObject(expected);
    expect(users.rows.get('u1')).toMatchObject({ ...expected, updatedAt: new Date(NOW) });
  });

  it('refuses a session of another account and changes nothing', async () => {
    const { billing, users, provider } = setup();
    provider.state.sessions.set('cs_other', { customerId: 'cus_x', clientReferenceId: 'someone' });
    const error = await failure(billing.completeCheckout('u1', 'cs_other'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toHaveProperty('message', 'This checkout does not belong to your account.');
    expect(users.rows.get('u1')?.stripeCustomerId).toBeNull();
  });

  it('stores a subscription bought in the trial as the paid plan, first charged at the trial end', async () => {
    const { billing, users, provider } = setup();
    provider.state.sessions.set('cs_3', { customerId: 'cus_existing', clientReferenceId: 'u2' });
    provider.state.subscriptions.set(
      'cus_existing',
      activeSubscription({ status: 'trialing', currentPeriodEnd: TRIAL_END, trialEnd: TRIAL_END }),
    );
    const expected = {
      subscriptionStatus: 'active',
      validUntil: TRIAL_END,
      planInterval: 'month',
      canceled: false,
      trialing: true,
    };
    expect(await billing.completeCheckout('u2', 'cs_3')).toMatchObject(expected);
    expect(users.rows.get('u2')).toMatchObject(expected);

    // The trial ended and the first charge went through: a renewing subscription from then on.
    provider.state.subscriptions.set('cus_existing', activeSubscription({ trialEnd: TRIAL_END }));
    await billing.applyWebhook({
      id: 'evt_paid',
      type: 'invoice.paid',
      customerId: 'cus_existing',
      clientReferenceId: null,
    });
    expect(users.rows.get('u2')).toMatchObject({ validUntil: PERIOD_END, trialing: false });
  });

  it('leaves the user as they were while the provider has no subscription yet', async () => {
    const { billing, users, provider } = setup();
    provider.state.sessions.set('cs_2', { customerId: 'cus_existing', clientReferenceId: null });
    const before = users.rows.get('u2');
    expect(await billing.completeCheckout('u2', 'cs_2')).toEqual(before);
    expect(users.rows.get('u2')).toEqual(before);
  });
});

describe('billing service: webhooks', () => {
  const event = (overrides: Partial<BillingWebhookEvent> = {}): BillingWebhookEvent => ({
    id: 'evt_1',
    type: 'customer.subscription.updated',
    customerId: 'cus_existing',
    clientReferenceId: null,
    ...overrides,
  });

  it('verifies the signature, and refuses a forged one as an invalid signature', () => {
    const { billing } = setup();
    const body = Buffer.from(JSON.stringify(event()));
    expect(billing.verifyWebhook(body, 'good')).toEqual(event());
    const forged = (() => {
      try {
        billing.verifyWebhook(body, 'forged');
      } catch (error) {
        return error;
      }
    })();
    expect(forged).toBeInstanceOf(InvalidSignatureError);
    expect(forged).toHaveProperty('message', 'The webhook signature is not valid.');
  });

  it('refuses webhooks as not configured, not as forged, without payments', () => {
    const { billing } = setup({ configured: false });
    expect(() => billing.verifyWebhook(Buffer.from('{}'), 'good')).toThrow(NotConfiguredError);
  });

  it('re-reads the subscription, stores it, and records the event once', async () => {
    const { billing, users, events, provider } = setup();
    provider.state.subscriptions.set('cus_existing', activeSubscription({ interval: 'year' }));
    expect(await billing.applyWebhook(event())).toEqual({ outcome: 'applied', userId: 'u2' });
    expect(users.rows.get('u2')).toMatchObject({
      subscriptionStatus: 'active',
      validUntil: PERIOD_END,
      planInterval: 'year',
      stripeSubscriptionId: 'sub_1',
    });
    expect(events.rows.get('evt_1')).toEqual({
      type: 'customer.subscription.updated',
      processedAt: new Date(NOW),
    });

    provider.state.subscriptions.set(
      'cus_existing',
      activeSubscription({ status: 'canceled', endedAt: new Date(NOW) }),
    );
    expect(await billing.applyWebhook(event())).toEqual({ outcome: 'duplicate', userId: null });
    expect(users.rows.get('u2')?.subscriptionStatus).toBe('active');
  });

  it('links the customer of a checkout event to the user it was opened for', async () => {
    const { billing, users, provider } = setup();
    provider.state.subscriptions.set('cus_new', activeSubscription());
    const outcome = await billing.applyWebhook(
      event({
        id: 'evt_2',
        type: 'checkout.session.completed',
        customerId: 'cus_new',
        clientReferenceId: 'u1',
      }),
    );
    expect(outcome).toEqual({ outcome: 'applied', userId: 'u1' });
    expect(users.rows.get('u1')).toMatchObject({ stripeCustomerId: 'cus_new', subscriptionStatus: 'active' });
  });

  it('never moves a user with a customer of their own onto another customer', async () => {
    const { billing, users } = setup();
    const outcome = await billing.applyWebhook(
      event({ id: 'evt_3', customerId: 'cus_stranger', clientReferenceId: 'u2' }),
    );
    expect(outcome).toEqual({ outcome: 'unmatched', userId: null });
    expect(users.rows.get('u2')?.stripeCustomerId).toBe('cus_existing');
  });

  it('records an event for no known customer as unmatched, so it is not read again', async () => {
    const { billing, events } = setup();
    expect(await billing.applyWebhook(event({ id: 'evt_4', customerId: 'cus_nobody' }))).toEqual({
      outcome: 'unmatched',
      userId: null,
    });
    expect(events.rows.has('evt_4')).toBe(true);
  });
});
