import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { users } from '#server/db/schema/users.table.ts';
import { setUpStripeTestApp } from '#server/test/stripe-test-app.ts';
import { eventually } from '#server/test/sync-fixtures.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Upgrading in the trial keeps the trial (docs/product-rules.md §4): an app of its own, because its
 * tests move the Stripe emulator's clock, which no later Checkout of another file's users could follow.
 */
describe('upgrading in the free trial, against the Stripe emulator', () => {
  const payments = setUpStripeTestApp();
  const { signIn, currentUser, postForm, emulatorPost, subscribe, deliverEventsOf } = payments;

  it('charges at once when less of the trial is left than Stripe accepts', async () => {
    const cookies = await signIn('last-day@example.com');
    const { id } = await currentUser(cookies);
    await payments.app.database.db
      .update(users)
      .set({ validUntil: new Date(Date.now() + 30 * HOUR_MS) })
      .where(eq(users.id, id));
    const { subscription } = await subscribe(cookies);
    expect(subscription).toMatchObject({ status: 'active', trial_end: null });
    const { payment } = await currentUser(cookies);
    expect(payment).toMatchObject({ subscriptionStatus: 'active', trialing: false });
    expect(Date.parse(payment.validUntil) - Date.now()).toBeGreaterThan(27 * DAY_MS);
  });

  it('keeps the trial: nothing charged until it ends, then the first charge and a renewing plan', async () => {
    const cookies = await signIn('keeps-trial@example.com');
    const trialEnd = Date.parse((await currentUser(cookies)).payment.validUntil);
    const trialEndSeconds = Math.floor(trialEnd / 1000);
    const { subscription } = await subscribe(cookies);
    expect(subscription).toMatchObject({ status: 'trialing', trial_end: trialEndSeconds });
    const first = await payments.stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(first.amount_paid).toBe(0);
    expect((await currentUser(cookies)).payment).toEqual({
      subscriptionStatus: 'active',
      validUntil: new Date(trialEndSeconds * 1000).toISOString(),
      plan: { interval: 'month' },
      canceled: false,
      trialing: true,
    });
    // Already subscribed: the upgrade form leads to the portal, never to a second subscription.
    const again = await postForm('/api/payment/create/checkout/session', cookies, {
      lookup_key: 'timeboxerYearly',
    });
    expect(String(again.headers.location)).toMatch(new RegExp(`^${payments.stripeOrigin}/p/session/`));

    const clock = (await (await fetch(`${payments.stripeOrigin}/_emulator/clock`)).json()) as { now: number };
    const toTrialEnd = trialEndSeconds - clock.now;
    expect((await emulatorPost('/_emulator/clock/advance', { seconds: toTrialEnd + 3600 })).status).toBe(200);
    const charged = await payments.stripe.subscriptions.retrieve(subscription.id, {
      expand: ['latest_invoice'],
    });
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
