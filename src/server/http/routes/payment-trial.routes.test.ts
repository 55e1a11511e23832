import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { users } from '#server/db/schema/users.table.ts';
import { signInThroughEmulator } from '#server/test/sign-in.ts';
import { eventually } from '#server/test/sync-fixtures.ts';
import { createTestApp, sameOrigin } from '#server/test/test-app.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Upgrading in the trial keeps the trial (docs/product-rules.md §4): an app of its own, because its
 * tests move the Stripe emulator's clock, which no later Checkout of another file's users could follow.
 */
describe('upgrading in the free trial, against the Stripe emulator', () => {
  let app: App;
  let stripe: Stripe;
  let stripeOrigin: string;
  let webhookSecret: string;

  beforeAll(async () => {
    app = await createTestApp();
    const emulator = app.emulators?.stripe;
    if (!emulator) throw new Error('the test app runs in sandbox mode');
    stripeOrigin = emulator.origin;
    webhookSecret = emulator.webhookSecret;
    const url = new URL(stripeOrigin);
    stripe = new Stripe(emulator.secretKey, { host: url.hostname, port: url.port, protocol: 'http' });
  });
  afterAll(() => app.close());

  const signIn = async (email: string) => {
    const { sessionCookie } = await signInThroughEmulator(app.server, 'google', { email, name: 'Tri Al' });
    return { sid: sessionCookie?.value ?? '' };
  };
  const currentUser = async (cookies: Record<string, string>) =>
    (await app.server.inject({ url: '/api/current_user', cookies })).json();
  const emulatorPost = (path: string, body: unknown) =>
    fetch(`${stripeOrigin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** Upgrades through Checkout as the hosted page would; returns the Stripe subscription it made. */
  const subscribe = async (cookies: Record<string, string>) => {
    const checkout = await app.server.inject({
      method: 'POST',
      url: '/api/payment/create/checkout/session',
      cookies,
      headers: { ...sameOrigin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'lookup_key=timeboxerMonthly',
    });
    expect(checkout.statusCode).toBe(303);
    const sessionId = String(checkout.headers.location).split('/').at(-1) ?? '';
    const done = await emulatorPost(`/_emulator/checkout/sessions/${sessionId}/complete`, {});
    expect(done.status).toBe(200);
    const completed = await app.server.inject({
      method: 'POST',
      url: '/api/payment/checkout/complete',
      cookies,
      headers: sameOrigin,
      payload: { sessionId },
    });
    expect(completed.statusCode).toBe(200);
    return ((await done.json()) as { subscription: Stripe.Subscription }).subscription;
  };

  /** Delivers every event Stripe sent about the customer, signed, as Stripe would. */
  const deliverEventsOf = async (customerId: string) => {
    const events = (await stripe.events.list({ limit: 100 })).data.filter((event) =>
      JSON.stringify(event.data.object).includes(customerId),
    );
    for (const event of events.reverse()) {
      const payload = JSON.stringify(event);
      const response = await app.server.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
        },
        payload,
      });
      expect(response.statusCode).toBe(200);
    }
  };

  it('charges at once when less of the trial is left than Stripe accepts', async () => {
    const cookies = await signIn('last-day@example.com');
    const { id } = await currentUser(cookies);
    await app.database.db
      .update(users)
      .set({ validUntil: new Date(Date.now() + 30 * HOUR_MS) })
      .where(eq(users.id, id));
    const subscription = await subscribe(cookies);
    expect(subscription).toMatchObject({ status: 'active', trial_end: null });
    const { payment } = await currentUser(cookies);
    expect(payment).toMatchObject({ subscriptionStatus: 'active', trialing: false });
    expect(Date.parse(payment.validUntil) - Date.now()).toBeGreaterThan(27 * DAY_MS);
  });

  it('keeps the trial: nothing charged until it ends, then the first charge and a renewing plan', async () => {
    const cookies = await signIn('keeps-trial@example.com');
    const trialEnd = Date.parse((await currentUser(cookies)).payment.validUntil);
    const trialEndSeconds = Math.floor(trialEnd / 1000);
    const subscription = await subscribe(cookies);
    expect(subscription).toMatchObject({ status: 'trialing', trial_end: trialEndSeconds });
    const first = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(first.amount_paid).toBe(0);
    expect((await currentUser(cookies)).payment).toEqual({
      subscriptionStatus: 'active',
      validUntil: new Date(trialEndSeconds * 1000).toISOString(),
      plan: { interval: 'month' },
      canceled: false,
      trialing: true,
    });
    // Already subscribed: the upgrade form leads to the portal, never to a second subscription.
    const again = await app.server.inject({
      method: 'POST',
      url: '/api/payment/create/checkout/session',
      cookies,
      headers: { ...sameOrigin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'lookup_key=timeboxerYearly',
    });
    expect(String(again.headers.location)).toMatch(new RegExp(`^${stripeOrigin}/p/session/`));

    const clock = (await (await fetch(`${stripeOrigin}/_emulator/clock`)).json()) as { now: number };
    const toTrialEnd = trialEndSeconds - clock.now;
    expect((await emulatorPost('/_emulator/clock/advance', { seconds: toTrialEnd + 3600 })).status).toBe(200);
    const charged = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    expect(charged.status).toBe('active');
    expect((charged.latest_invoice as Stripe.Invoice).amount_paid).toBe(300);

    await deliverEventsOf(String(subscription.customer));
    await eventually(async () =>
      expect((await currentUser(cookies)).payment).toMatchObject({
        subscriptionStatus: 'active',
        trialing: false,
        validUntil: new Date((charged.items.data[0]?.current_period_end ?? 0) * 1000).toISOString(),
      }),
    );
    const renewsOn = Date.parse((await currentUser(cookies)).payment.validUntil);
    expect(renewsOn - trialEnd).toBeGreaterThan(27 * DAY_MS);
  });
});
