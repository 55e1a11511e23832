import Stripe from 'stripe';
import { afterAll, beforeAll, expect } from 'vitest';
import type { App } from '#server/app.ts';
import { signInThroughEmulator } from './sign-in.ts';
import { createTestApp, sameOrigin } from './test-app.ts';

type Cookies = Record<string, string>;

/**
 * A test app of its own in sandbox mode for one `describe` about payments, built before its tests and
 * closed after them, with the Stripe SDK pointed at its Stripe emulator and what those tests do: sign in,
 * post the payment forms and calls as the web app does, subscribe through Checkout, and deliver the
 * events Stripe sent, signed as Stripe signs them. `app`, `stripe`, `stripeOrigin` and `webhookSecret`
 * exist from the `beforeAll` on.
 */
export function setUpStripeTestApp() {
  let started: { app: App; stripe: Stripe; origin: string; webhookSecret: string } | undefined;
  beforeAll(async () => {
    const app = await createTestApp();
    const emulator = app.emulators?.stripe;
    if (!emulator) throw new Error('the test app runs in sandbox mode');
    const url = new URL(emulator.origin);
    const stripe = new Stripe(emulator.secretKey, { host: url.hostname, port: url.port, protocol: 'http' });
    started = { app, stripe, origin: emulator.origin, webhookSecret: emulator.webhookSecret };
  });
  afterAll(() => started?.app.close());
  const get = () => {
    if (!started) throw new Error('built in beforeAll');
    return started;
  };

  const signIn = async (email: string): Promise<Cookies> => {
    const { sessionCookie } = await signInThroughEmulator(get().app.server, 'google', {
      email,
      name: 'Pay Ing',
    });
    return { sid: sessionCookie?.value ?? '' };
  };
  const currentUser = async (cookies: Cookies) =>
    (await get().app.server.inject({ url: '/api/current_user', cookies })).json();
  const postForm = (url: string, cookies: Cookies, form: Record<string, string> = {}) =>
    get().app.server.inject({
      method: 'POST',
      url,
      cookies,
      headers: { ...sameOrigin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
  const postJson = (url: string, cookies: Cookies, body: unknown) =>
    get().app.server.inject({ method: 'POST', url, cookies, headers: sameOrigin, payload: body as object });
  /** A call to the emulator's own controls (`/_emulator/…`), which Stripe does not have. */
  const emulatorPost = (path: string, body: unknown) =>
    fetch(`${get().origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /**
   * Subscribes through Checkout as the hosted page would (paying with `card` when given), then reports
   * back like /subscriptionsuccess. Returns the current user our answer carries and the subscription
   * Stripe made.
   */
  const subscribe = async (cookies: Cookies, lookupKey = 'timeboxerMonthly', card?: string) => {
    const checkout = await postForm('/api/payment/create/checkout/session', cookies, {
      lookup_key: lookupKey,
    });
    expect(checkout.statusCode).toBe(303);
    const sessionId = String(checkout.headers.location).split('/').at(-1) ?? '';
    const done = await emulatorPost(
      `/_emulator/checkout/sessions/${sessionId}/complete`,
      card ? { card } : {},
    );
    expect(done.status).toBe(200);
    const completed = await postJson('/api/payment/checkout/complete', cookies, { sessionId });
    expect(completed.statusCode).toBe(200);
    const { subscription } = (await done.json()) as { subscription: Stripe.Subscription };
    return { user: completed.json(), subscription };
  };

  /** Every event the emulator produced for a customer, oldest first, signed as Stripe signs them. */
  const signedEventsFor = async (customerId: string) => {
    const { stripe, webhookSecret } = get();
    const events = await stripe.events.list({ limit: 100 });
    return events.data
      .filter((event) => JSON.stringify(event.data.object).includes(customerId))
      .reverse()
      .map((event) => {
        const payload = JSON.stringify(event);
        return {
          id: event.id,
          payload,
          signature: stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
        };
      });
  };
  /** Posts a webhook to our endpoint as Stripe would. */
  const deliver = (payload: string, signature: string) =>
    get().app.server.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
  /** Delivers every event Stripe sent about the customer, in order, each accepted. */
  const deliverEventsOf = async (customerId: string) => {
    for (const event of await signedEventsFor(customerId)) {
      expect((await deliver(event.payload, event.signature)).statusCode, event.id).toBe(200);
    }
  };

  return {
    get app() {
      return get().app;
    },
    get stripe() {
      return get().stripe;
    },
    get stripeOrigin() {
      return get().origin;
    },
    get webhookSecret() {
      return get().webhookSecret;
    },
    signIn,
    currentUser,
    postForm,
    postJson,
    emulatorPost,
    subscribe,
    signedEventsFor,
    deliver,
    deliverEventsOf,
  };
}
