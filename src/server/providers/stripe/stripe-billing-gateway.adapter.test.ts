import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_STRIPE_SECRET_KEY,
  SANDBOX_STRIPE_WEBHOOK_SECRET,
} from '#emulators/stripe/stripe.emulator.ts';
import { startTestEmulator, type TestEmulator } from '#emulators/stripe/stripe.test-support.ts';
import {
  BillingUnavailableError,
  CheckoutNotFoundError,
} from '#server/domain/billing/billing-gateway.port.ts';
import { InvalidSignatureError } from '#server/domain/shared/domain-errors.ts';
import { createStripeBillingGateway } from './stripe-billing-gateway.adapter.ts';

/** Words only Stripe would write: they must never be the message of what the gateway throws. */
const STRIPE_WORDS = 'Stripe says: the request was refused (req_secret)';

/** The gateway as sandbox mode configures it, on the test's own Stripe emulator. */
const gatewayOn = (emulator: TestEmulator) =>
  createStripeBillingGateway({
    secretKey: SANDBOX_STRIPE_SECRET_KEY,
    webhookSecret: SANDBOX_STRIPE_WEBHOOK_SECRET,
    apiUrl: emulator.origin,
    redirectOrigins: [],
  });

describe('the Stripe billing gateway turns every SDK failure into a domain error', () => {
  let emulator: TestEmulator;
  let gateway: ReturnType<typeof createStripeBillingGateway>;
  let customerId: string;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    gateway = gatewayOn(emulator);
    customerId = await gateway.createCustomer({ userId: 'user-1', email: 'gw@example.com', name: 'G W' });
  });
  afterEach(async () => {
    await emulator.control('/_emulator/faults', undefined, 'DELETE');
  });
  afterAll(() => emulator.close());

  /** Stripe refuses the next request to `path` with its own error body (a 400: the SDK does not retry it). */
  const refuseNext = (method: string, path: string) =>
    emulator.control('/_emulator/faults', {
      kind: 'status',
      method,
      path,
      status: 400,
      times: 1,
      body: { error: { type: 'invalid_request_error', message: STRIPE_WORDS } },
    });

  const calls = {
    createCustomer: () => gateway.createCustomer({ userId: 'user-2', email: 'x@example.com', name: 'X' }),
    createCheckoutSession: () =>
      gateway.createCheckoutSession({
        customerId,
        userId: 'user-1',
        lookupKey: 'timeboxerMonthly',
        successUrl: 'http://localhost/ok',
        cancelUrl: 'http://localhost/cancel',
        trialEnd: null,
      }),
    createPortalSession: () => gateway.createPortalSession({ customerId, returnUrl: 'http://localhost/p' }),
    createPaymentIntent: () => gateway.createPaymentIntent({ customerId, lookupKey: 'timeboxerMonthly' }),
    readCheckoutSession: () => gateway.readCheckoutSession('cs_test_a1anything'),
    readSubscription: () => gateway.readSubscription(customerId),
  };

  it.each([
    ['createCustomer', 'POST', '/v1/customers'],
    ['createCheckoutSession', 'GET', '/v1/prices'],
    ['createCheckoutSession', 'POST', '/v1/checkout/sessions'],
    ['createPortalSession', 'POST', '/v1/billing_portal/sessions'],
    ['createPaymentIntent', 'GET', '/v1/prices'],
    ['createPaymentIntent', 'POST', '/v1/payment_intents'],
    ['readCheckoutSession', 'GET', '/v1/checkout/sessions'],
    ['readSubscription', 'GET', '/v1/subscriptions'],
  ] as const)(
    '%s: Stripe refusing %s %s is BillingUnavailableError, Stripe’s words only in the cause',
    async (call, method, path) => {
      expect((await refuseNext(method, path)).status).toBeLessThan(300);
      const error = await calls[call]().then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(BillingUnavailableError);
      expect((error as Error).message).not.toContain(STRIPE_WORDS);
      expect(String((error as Error).cause)).toContain(STRIPE_WORDS);
    },
  );

  it('answers an unknown checkout session with CheckoutNotFoundError', async () => {
    await expect(gateway.readCheckoutSession('cs_test_a1doesnotexist')).rejects.toBeInstanceOf(
      CheckoutNotFoundError,
    );
  });

  it('turns an error of the SDK itself (a lone surrogate it cannot encode) into BillingUnavailableError', async () => {
    await expect(gateway.readCheckoutSession('\ud800')).rejects.toBeInstanceOf(BillingUnavailableError);
  });

  it('turns a forged or unparsable webhook into InvalidSignatureError', () => {
    expect(() => gateway.verifyWebhook(Buffer.from('{}'), 't=1,v1=forged')).toThrow(InvalidSignatureError);
    expect(() => gateway.verifyWebhook(Buffer.from('{}'), '')).toThrow(InvalidSignatureError);
  });

  it('still answers when Stripe does', async () => {
    await expect(calls.createPaymentIntent()).resolves.toMatch(/^pi_.+_secret_/);
    await expect(calls.readSubscription()).resolves.toBeNull();
  });
});

describe('the Stripe billing gateway starts a subscription in the trial it is given', () => {
  let emulator: TestEmulator;
  let gateway: ReturnType<typeof createStripeBillingGateway>;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    gateway = gatewayOn(emulator);
  });
  afterAll(() => emulator.close());

  /** Opens Checkout for a new customer and pays it as the hosted page would; returns what we read back. */
  const subscribe = async (userId: string, trialEnd: Date | null) => {
    const customerId = await gateway.createCustomer({ userId, email: `${userId}@example.com`, name: userId });
    const url = await gateway.createCheckoutSession({
      customerId,
      userId,
      lookupKey: 'timeboxerMonthly',
      successUrl: 'http://localhost/ok',
      cancelUrl: 'http://localhost/cancel',
      trialEnd,
    });
    const sessionId = new URL(url).pathname.split('/').at(-1);
    expect((await emulator.control(`/_emulator/checkout/sessions/${sessionId}/complete`, {})).status).toBe(
      200,
    );
    return gateway.readSubscription(customerId);
  };

  it('passes the trial end as subscription_data.trial_end, in whole seconds, and reads the trial back', async () => {
    const trialEnd = new Date(Date.now() + 10 * 86_400_000 + 123);
    const whole = new Date(Math.floor(trialEnd.getTime() / 1000) * 1000);
    expect(await subscribe('trial-user', trialEnd)).toMatchObject({
      status: 'trialing',
      interval: 'month',
      trialEnd: whole,
      currentPeriodEnd: whole,
      cancelAtPeriodEnd: false,
    });
  });

  it('starts billing at once without a trial end', async () => {
    const snapshot = await subscribe('paying-user', null);
    expect(snapshot).toMatchObject({ status: 'active', trialEnd: null });
    expect((snapshot?.currentPeriodEnd.getTime() ?? 0) - Date.now()).toBeGreaterThan(27 * 86_400_000);
  });
});
