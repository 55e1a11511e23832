import { describe, expect, it } from 'vitest';
import { stripeEvents } from '#server/db/schema/stripe-events.table.ts';
import { setUpStripeTestApp } from '#server/test/stripe-test-app.ts';
import { eventually } from '#server/test/sync-fixtures.ts';
import { crossSite, sameOrigin } from '#server/test/test-app.ts';
import { UNSTORABLE_TEXT_MESSAGE } from '#shared/validation/storable-text.ts';

const DAY_MS = 86_400_000;

describe('payments against the Stripe emulator', () => {
  const payments = setUpStripeTestApp();
  const { signIn, currentUser, postForm, postJson, emulatorPost, subscribe, signedEventsFor, deliver } =
    payments;
  /** A POST with its headers and body as given, for requests the web app's pages do not make. */
  const postRaw = (
    url: string,
    cookies: Record<string, string>,
    headers: Record<string, string>,
    payload: string,
  ) => payments.app.server.inject({ method: 'POST', url, cookies, headers, payload });
  const customerOf = async (email: string) =>
    (await payments.stripe.customers.list({ email, limit: 1 })).data[0]?.id ?? '';

  it('checkout form posts redirect to Stripe Checkout in subscription mode, monthly or yearly', async () => {
    const cookies = await signIn('checkout@example.com');
    for (const lookupKey of ['timeboxerMonthly', 'timeboxerYearly']) {
      const response = await postForm('/api/payment/create/checkout/session', cookies, {
        lookup_key: lookupKey,
      });
      expect(response.statusCode).toBe(303);
      const location = new URL(String(response.headers.location));
      expect(location.origin).toBe(payments.stripeOrigin);
      const session = await payments.stripe.checkout.sessions.retrieve(
        location.pathname.split('/').at(-1) ?? '',
        {
          expand: ['line_items'],
        },
      );
      expect(session).toMatchObject({
        mode: 'subscription',
        client_reference_id: (await currentUser(cookies)).id,
      });
      expect(session.success_url).toBe(
        'http://localhost:3000/subscriptionsuccess?session_id={CHECKOUT_SESSION_ID}',
      );
      expect(session.line_items?.data[0]?.price?.lookup_key).toBe(lookupKey);
    }
  });

  it('refuses an unknown plan, a signed-out visitor and a cross-site form', async () => {
    const cookies = await signIn('refused@example.com');
    const bad = await postForm('/api/payment/create/checkout/session', cookies, {
      lookup_key: 'freeForever',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].field).toBe('lookup_key');
    const signedOut = await postForm(
      '/api/payment/create/checkout/session',
      {},
      { lookup_key: 'timeboxerMonthly' },
    );
    expect(signedOut.headers.location).toBe('/login');
    const forged = await postRaw(
      '/api/payment/create/checkout/session',
      cookies,
      { ...crossSite, 'content-type': 'application/x-www-form-urlencoded' },
      'lookup_key=timeboxerMonthly',
    );
    expect(forged.statusCode).toBe(403);
  });

  it('subscribes, cancels at period end, resumes, and opens the billing portal', async () => {
    const cookies = await signIn('subscriber@example.com');
    const trialEnd = Date.parse((await currentUser(cookies)).payment.validUntil);
    const { user } = await subscribe(cookies, 'timeboxerYearly');
    // Bought in the trial: the plan runs now, its first charge (and so its date) is the trial's end.
    expect(user.payment).toMatchObject({
      subscriptionStatus: 'active',
      plan: { interval: 'year' },
      canceled: false,
      trialing: true,
    });
    expect(Date.parse(user.payment.validUntil)).toBe(Math.floor(trialEnd / 1000) * 1000);
    expect(trialEnd - Date.now()).toBeGreaterThan(13 * DAY_MS);

    const customerId = await customerOf('subscriber@example.com');
    const [subscription] = (await payments.stripe.subscriptions.list({ customer: customerId })).data;
    await payments.stripe.subscriptions.update(subscription?.id ?? '', { cancel_at_period_end: true });
    await payments.deliverEventsOf(customerId);
    // Webhooks are applied by the worker, moments after Stripe got its answer.
    await eventually(async () =>
      expect((await currentUser(cookies)).payment).toMatchObject({
        subscriptionStatus: 'active',
        canceled: true,
      }),
    );

    await payments.stripe.subscriptions.update(subscription?.id ?? '', { cancel_at_period_end: false });
    await payments.deliverEventsOf(customerId);
    await eventually(async () =>
      expect((await currentUser(cookies)).payment).toMatchObject({
        subscriptionStatus: 'active',
        canceled: false,
      }),
    );

    const portal = await postForm('/api/payment/customerportal', cookies);
    expect(portal.statusCode).toBe(303);
    expect(String(portal.headers.location)).toMatch(new RegExp(`^${payments.stripeOrigin}/p/session/`));

    // Already subscribed: "upgrading" again leads to the portal, never to a second subscription.
    const again = await postForm('/api/payment/create/checkout/session', cookies, {
      lookup_key: 'timeboxerMonthly',
    });
    expect(String(again.headers.location)).toMatch(new RegExp(`^${payments.stripeOrigin}/p/session/`));
  });

  it("does not let a user claim another user's checkout", async () => {
    const owner = await signIn('owner@example.com');
    const checkout = await postForm('/api/payment/create/checkout/session', owner, {
      lookup_key: 'timeboxerMonthly',
    });
    const sessionId = String(checkout.headers.location).split('/').at(-1);
    const thief = await signIn('thief@example.com');
    const response = await postJson('/api/payment/checkout/complete', thief, { sessionId });
    expect(response.statusCode).toBe(404);
    expect((await currentUser(thief)).payment.subscriptionStatus).toBe('trial');
  });

  it('applies webhooks once each, in any order, re-reading the subscription from Stripe', async () => {
    const cookies = await signIn('webhooks@example.com');
    await subscribe(cookies, 'timeboxerMonthly', '4000000000000341');
    const customerId = await customerOf('webhooks@example.com');

    // The first charge, when the trial ends, fails: the subscription goes past_due at Stripe, and only
    // webhooks tell us. (The emulator's clock stays ahead from here on: the tests below open no Checkout.)
    await emulatorPost('/_emulator/clock/advance', { days: 15 });
    const provider = (await payments.stripe.subscriptions.list({ customer: customerId, status: 'all' }))
      .data[0];
    expect(provider?.status).toBe('past_due');
    expect((await currentUser(cookies)).payment.subscriptionStatus).toBe('active');

    const events = await signedEventsFor(customerId);
    expect(events.length).toBeGreaterThan(3);
    const shuffled = [...events].reverse();
    for (const event of shuffled) {
      const response = await deliver(event.payload, event.signature);
      expect(response.statusCode, event.id).toBe(200);
      expect(response.json().outcome).toBe('queued');
    }
    const processed = async () =>
      (await payments.app.database.db.select().from(stripeEvents)).filter((row) =>
        events.some((event) => event.id === row.eventId),
      ).length;
    await eventually(async () => expect(await processed()).toBe(events.length));
    const after = (await currentUser(cookies)).payment;
    expect(after.subscriptionStatus).toBe('past_due');

    // A redelivered event is queued again and applied no second time.
    const replay = await deliver(events[0]?.payload ?? '', events[0]?.signature ?? '');
    expect(replay.json().outcome).toBe('queued');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await processed()).toBe(events.length);
    expect((await currentUser(cookies)).payment).toEqual(after);
  });

  it('rejects forged, tampered and stale webhooks without changing anything', async () => {
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: {} },
    });
    const forged = await deliver(
      payload,
      payments.stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' }),
    );
    expect(forged.statusCode).toBe(400);
    const signature = payments.stripe.webhooks.generateTestHeaderString({
      payload,
      secret: payments.webhookSecret,
    });
    const tampered = await deliver(payload.replace('deleted', 'created'), signature);
    expect(tampered.statusCode).toBe(400);
    const stale = payments.stripe.webhooks.generateTestHeaderString({
      payload,
      secret: payments.webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect((await deliver(payload, stale)).statusCode).toBe(400);
    const unsigned = await postRaw(
      '/api/webhooks/stripe',
      {},
      { 'content-type': 'application/json' },
      payload,
    );
    expect(unsigned.statusCode).toBe(400);
  });

  it('creates the customer and a payment intent with a client secret', async () => {
    const cookies = await signIn('intent@example.com');
    const customer = await postJson('/api/payment/create/customer', cookies, {});
    expect(customer.statusCode).toBe(200);
    expect(customer.json().email).toBe('intent@example.com');
    expect(await customerOf('intent@example.com')).toMatch(/^cus_/);
    const intent = await postJson('/api/payment/create/intent', cookies, {});
    expect(intent.json().clientSecret).toMatch(/^pi_.+_secret_.+/);
  });

  it('refuses a session id that is not a Stripe checkout id with a 400, before asking Stripe', async () => {
    const cookies = await signIn('bad-session@example.com');
    // Half of an emoji is refused before any route, in words of its own.
    const asJson = { ...sameOrigin, 'content-type': 'application/json' };
    const halfEmoji = await postRaw(
      '/api/payment/checkout/complete',
      cookies,
      asJson,
      '{"sessionId":"\\ud800"}',
    );
    expect(halfEmoji.statusCode).toBe(400);
    expect(halfEmoji.json()).toEqual({ error: 'bad_request', message: UNSTORABLE_TEXT_MESSAGE });
    for (const payload of ['{"sessionId":"cs_test_a1/../../v1/customers"}', '{"sessionId":"cs_test_é"}']) {
      const response = await postRaw('/api/payment/checkout/complete', cookies, asJson, payload);
      expect(response.statusCode, payload).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'bad_request',
        message: 'This checkout link is not valid.',
        issues: [{ field: 'sessionId' }],
      });
    }
    const tooLong = await postJson('/api/payment/checkout/complete', cookies, {
      sessionId: `cs_test_${'a'.repeat(300)}`,
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('answers Stripe failures in our own words: an unknown checkout, a refused request', async () => {
    const cookies = await signIn('stripe-fails@example.com');
    const unknown = await postJson('/api/payment/checkout/complete', cookies, {
      sessionId: 'cs_test_a1doesnotexist',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'This checkout was not found.' });

    const stripeWords = 'Stripe says: this API key cannot create payment intents';
    const fault = await emulatorPost('/_emulator/faults', {
      kind: 'status',
      method: 'POST',
      path: '/v1/payment_intents',
      status: 400,
      times: 1,
      body: { error: { type: 'invalid_request_error', message: stripeWords } },
    });
    expect(fault.ok).toBe(true);
    const intent = await postJson('/api/payment/create/intent', cookies, {});
    expect(intent.statusCode).toBe(502);
    expect(intent.json()).toEqual({
      error: 'upstream_error',
      message: 'Payments did not answer as expected. Please try again.',
    });
  });
});
