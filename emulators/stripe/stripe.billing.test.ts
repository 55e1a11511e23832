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
