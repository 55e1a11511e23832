import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { startTestEmulator, subscribeThroughCheckout, type TestEmulator } from './stripe.test-support.ts';

const DAY = 86_400;

let emulator: TestEmulator;
let stripe: Stripe;

setUpEmulator(startTestEmulator, (started) => {
  emulator = started;
  stripe = started.stripe;
});

async function advance(days: number) {
  const response = await emulator.control('/_emulator/clock/advance', { seconds: Math.round(days * DAY) });
  expect(response.status).toBe(200);
  return (await response.json()) as { now: number; steps: number };
}

async function eventTypes(objectId: string): Promise<string[]> {
  const events = await stripe.events.list({ limit: 100 });
  return events.data
    .filter((event) => (event.data.object as { id?: string }).id === objectId)
    .map((event) => event.type)
    .reverse();
}

describe('test clock', () => {
  it('renews at period end with a new paid invoice', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator);
    const id = subscription?.id ?? '';
    const firstEnd = subscription?.items.data[0]?.current_period_end ?? 0;

    await advance(32);
    const renewed = await stripe.subscriptions.retrieve(id);
    expect(renewed.status).toBe('active');
    expect(renewed.items.data[0]?.current_period_start).toBe(firstEnd);
    expect(renewed.items.data[0]?.current_period_end).toBeGreaterThan(firstEnd + 27 * DAY);
    expect(renewed.latest_invoice).not.toBe(subscription?.latest_invoice);
    const invoice = await stripe.invoices.retrieve(renewed.latest_invoice as string);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 300, billing_reason: 'subscription_cycle' });
    expect(invoice.period_end).toBe(firstEnd);

    const updates = await stripe.events.list({ type: 'customer.subscription.updated' });
    const renewal = updates.data[0] as Stripe.CustomerSubscriptionUpdatedEvent;
    expect(renewal.data.object.id).toBe(id);
    expect(renewal.data.previous_attributes).toHaveProperty('items');
    expect(renewal.data.previous_attributes).toHaveProperty('latest_invoice');
    expect((await stripe.events.list({ type: 'invoice.paid' })).data).toHaveLength(2);
  });

  it('bills a monthly plan twelve times over a year', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator);
    await advance(365);
    const invoices = await stripe.invoices.list({ subscription: subscription?.id, limit: 100 });
    expect(invoices.data).toHaveLength(13);
    const periodStart = (await stripe.subscriptions.retrieve(subscription?.id ?? '')).items.data[0]
      ?.current_period_start;
    expect(periodStart).toBe(invoices.data[0]?.lines.data[0]?.period.start);
  });

  it('moves to past_due when the renewal payment fails, then cancels after the retries', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator, { card: '4000 0000 0000 0341' });
    const id = subscription?.id ?? '';
    expect(subscription?.status).toBe('active');

    await advance(31);
    const pastDue = await stripe.subscriptions.retrieve(id, { expand: ['latest_invoice'] });
    expect(pastDue.status).toBe('past_due');
    const invoice = pastDue.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, amount_paid: 0 });
    expect(invoice.next_payment_attempt).toBeGreaterThan(0);
    const failed = (await stripe.events.list({ type: 'invoice.payment_failed' })).data;
    expect(failed).toHaveLength(1);

    await advance(3);
    expect((await stripe.invoices.retrieve(invoice.id)).attempt_count).toBe(2);
    await advance(12);
    const canceled = await stripe.subscriptions.retrieve(id);
    expect(canceled.status).toBe('canceled');
    expect(canceled.cancellation_details?.reason).toBe('payment_failed');
    expect((await stripe.events.list({ type: 'invoice.payment_failed' })).data).toHaveLength(4);
    expect(await eventTypes(id)).toContain('customer.subscription.deleted');
  });

  it('recovers from past_due when the customer fixes the card before the next retry', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator, { card: '4000000000000341' });
    await advance(31);
    await emulator.control(`/_emulator/customers/${subscription?.customer}/card`, {
      number: '4242424242424242',
    });
    await advance(3);
    const recovered = await stripe.subscriptions.retrieve(subscription?.id ?? '', {
      expand: ['latest_invoice'],
    });
    expect(recovered.status).toBe('active');
    expect((recovered.latest_invoice as Stripe.Invoice).status).toBe('paid');
  });

  it('ends a trial: notice three days before, then the first charge', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator, { trialDays: 14 });
    const id = subscription?.id ?? '';
    await advance(11.5);
    expect(await eventTypes(id)).toContain('customer.subscription.trial_will_end');
    expect((await stripe.subscriptions.retrieve(id)).status).toBe('trialing');

    await advance(3);
    const active = await stripe.subscriptions.retrieve(id, { expand: ['latest_invoice'] });
    expect(active.status).toBe('active');
    expect(active.items.data[0]?.current_period_start).toBe(subscription?.trial_end);
    expect((active.latest_invoice as Stripe.Invoice).amount_paid).toBe(300);
  });

  it('cancels a card-less trial at its end when the session says so', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator, {
      trialDays: 7,
      card: '',
      paymentMethodCollection: 'if_required',
      missingPaymentMethod: 'cancel',
    });
    expect(subscription?.status).toBe('trialing');
    expect(subscription?.default_payment_method).toBeNull();
    await advance(8);
    expect((await stripe.subscriptions.retrieve(subscription?.id ?? '')).status).toBe('canceled');
  });

  it('pauses a card-less trial at its end when the session says so', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator, {
      trialDays: 7,
      card: '',
      paymentMethodCollection: 'if_required',
      missingPaymentMethod: 'pause',
    });
    await advance(8);
    expect((await stripe.subscriptions.retrieve(subscription?.id ?? '')).status).toBe('paused');
    expect(await eventTypes(subscription?.id ?? '')).toContain('customer.subscription.paused');
  });

  it('applies cancel_at_period_end at the period end', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator);
    const id = subscription?.id ?? '';
    await stripe.subscriptions.update(id, { cancel_at_period_end: true });
    await advance(10);
    expect((await stripe.subscriptions.retrieve(id)).status).toBe('active');
    await advance(25);
    const ended = await stripe.subscriptions.retrieve(id);
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).toBe(subscription?.items.data[0]?.current_period_end);
    expect((await stripe.invoices.list({ subscription: id })).data).toHaveLength(1);
    expect((await eventTypes(id)).at(-1)).toBe('customer.subscription.deleted');
  });

  it('marks the subscription unpaid after the retries when configured so', async () => {
    const unpaid = await startTestEmulator({ dunning: { retryScheduleDays: [1], finalAction: 'unpaid' } });
    try {
      const { subscription } = await subscribeThroughCheckout(unpaid, { card: '4000000000000341' });
      await unpaid.control('/_emulator/clock/advance', { days: 33 });
      expect((await unpaid.stripe.subscriptions.retrieve(subscription?.id ?? '')).status).toBe('unpaid');
    } finally {
      await unpaid.app.close();
    }
  });

  it('expires an unpaid Checkout Session after 24 hours', async () => {
    const [price] = (await stripe.prices.list({ lookup_keys: ['timeboxerMonthly'] })).data;
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price?.id ?? '', quantity: 1 }],
      success_url: 'http://localhost:3000/ok',
    });
    await advance(1.01);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');
    expect(await eventTypes(session.id)).toEqual(['checkout.session.expired']);
  });
});

describe('a trial that ends at a set instant (subscription_data.trial_end)', () => {
  const clockNow = async () =>
    ((await (await emulator.control('/_emulator/clock', undefined, 'GET')).json()) as { now: number }).now;

  it('starts trialing until trial_end, charging nothing at Checkout', async () => {
    const trialEnd = (await clockNow()) + 12 * DAY + 7 * 3600;
    const { session, subscription, html } = await subscribeThroughCheckout(emulator, { trialEnd });
    expect(html).toContain('Then $3.00 per month starting');
    expect(html).toContain(
      new Date(trialEnd * 1000).toLocaleDateString('en-US', {
        month: 'long',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      }),
    );
    expect(session).toMatchObject({ payment_status: 'no_payment_required', amount_total: 0 });
    expect(subscription).toMatchObject({
      status: 'trialing',
      trial_end: trialEnd,
      billing_cycle_anchor: trialEnd,
      cancel_at_period_end: false,
    });
    expect(subscription?.trial_start).toBe(subscription?.created);
    expect(subscription?.items.data[0]).toMatchObject({
      current_period_start: subscription?.trial_start,
      current_period_end: trialEnd,
    });
    const invoices = (await stripe.invoices.list({ subscription: subscription?.id ?? '' })).data;
    expect(
      invoices.map((invoice) => [
        invoice.billing_reason,
        invoice.amount_due,
        invoice.amount_paid,
        invoice.status,
      ]),
    ).toEqual([['subscription_create', 0, 0, 'paid']]);
  });

  it('refuses a trial_end less than 48 hours away, as Stripe does', async () => {
    const [price] = (await stripe.prices.list({ lookup_keys: ['timeboxerMonthly'] })).data;
    const create = (trialEnd: number) =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: price?.id ?? '', quantity: 1 }],
        success_url: 'http://localhost:3000/ok',
        subscription_data: { trial_end: trialEnd },
      });
    const now = await clockNow();
    const error = await create(now + 2 * DAY - 60).then(
      () => null,
      (thrown: Stripe.errors.StripeError) => thrown,
    );
    expect(error).toMatchObject({ statusCode: 400, param: 'subscription_data[trial_end]' });
    await expect(create(now + 2 * DAY + 60)).resolves.toMatchObject({ status: 'open' });
  });

  it('charges nothing until trial_end, then bills the plan and turns active', async () => {
    const trialEnd = (await clockNow()) + 10 * DAY;
    const { subscription } = await subscribeThroughCheckout(emulator, {
      trialEnd,
      lookupKey: 'timeboxerYearly',
    });
    const id = subscription?.id ?? '';
    await advance(9.9);
    expect((await stripe.subscriptions.retrieve(id)).status).toBe('trialing');
    expect(
      (await stripe.invoices.list({ subscription: id })).data.map((invoice) => invoice.amount_paid),
    ).toEqual([0]);

    await advance(0.2);
    const active = await stripe.subscriptions.retrieve(id, { expand: ['latest_invoice'] });
    expect(active).toMatchObject({ status: 'active', trial_end: trialEnd });
    const item = active.items.data[0];
    expect(item?.current_period_start).toBe(trialEnd);
    expect(item?.current_period_end).toBe(
      Date.UTC(new Date(trialEnd * 1000).getUTCFullYear() + 1, ...monthDayTime(trialEnd)) / 1000,
    );
    expect(active.latest_invoice).toMatchObject({
      billing_reason: 'subscription_cycle',
      amount_paid: 2400,
      status: 'paid',
      status_transitions: { paid_at: trialEnd },
    });
    const types = await eventTypes(id);
    expect(types).toContain('customer.subscription.trial_will_end');
    expect(types.at(-1)).toBe('customer.subscription.updated');
  });
});

/** The month, day and time of day of a unix second, as Date.UTC takes them after the year. */
function monthDayTime(seconds: number): [number, number, number, number, number] {
  const date = new Date(seconds * 1000);
  return [
    date.getUTCMonth(),
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  ];
}

describe('forced status', () => {
  it('sets a status and sends customer.subscription.updated with the old one', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator);
    const id = subscription?.id ?? '';
    const response = await emulator.control(`/_emulator/subscriptions/${id}/status`, { status: 'past_due' });
    expect(response.status).toBe(200);
    expect((await stripe.subscriptions.retrieve(id)).status).toBe('past_due');
    const [latest] = (await stripe.events.list({ type: 'customer.subscription.updated', limit: 1 })).data;
    expect((latest as Stripe.CustomerSubscriptionUpdatedEvent).data.previous_attributes).toEqual({
      status: 'active',
    });

    await emulator.control(`/_emulator/subscriptions/${id}/status`, { status: 'canceled' });
    const [deleted] = (await stripe.events.list({ type: 'customer.subscription.deleted', limit: 1 })).data;
    expect((deleted?.data.object as Stripe.Subscription | undefined)?.id).toBe(id);
  });

  it('rejects an unknown status', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator);
    const response = await emulator.control(`/_emulator/subscriptions/${subscription?.id}/status`, {
      status: 'sleeping',
    });
    expect(response.status).toBe(400);
  });
});
