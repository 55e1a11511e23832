import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { SANDBOX_STRIPE_WEBHOOK_SECRET, STRIPE_API_VERSION } from './stripe.emulator.ts';
import {
  type Receiver,
  startReceiver,
  startTestEmulator,
  subscribeThroughCheckout,
  type TestEmulator,
} from './stripe.test-support.ts';
import { signatureHeader } from './stripe.webhooks.ts';

let emulator: TestEmulator;
let receiver: Receiver;
let stripe: Stripe;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.app.close();
});
setUpEmulator(startTestEmulator, (started) => {
  emulator = started;
  stripe = started.stripe;
});

beforeEach(async () => {
  await emulator.control('/_emulator/webhook', { url: receiver.url });
  receiver.received.length = 0;
  receiver.failNext(0);
});

const flush = () => emulator.control('/_emulator/webhook/flush');

function verify(index: number, secret = SANDBOX_STRIPE_WEBHOOK_SECRET): Stripe.Event {
  const delivery = receiver.received[index];
  if (!delivery) throw new Error(`no delivery ${index}`);
  return stripe.webhooks.constructEvent(
    delivery.body,
    delivery.headers['stripe-signature'] as string,
    secret,
  );
}

/** Deliveries run concurrently, as Stripe's do: arrival order is not guaranteed. */
const verifiedEvents = () => receiver.received.map((_, index) => verify(index));
const ofType = <T extends Stripe.Event>(type: string) =>
  verifiedEvents().find((event) => event.type === type) as T | undefined;

const receivedIds = () =>
  receiver.received.map((delivery) => (JSON.parse(delivery.body) as { id: string }).id);

describe('webhook deliveries', () => {
  it('signs every event so that stripe.webhooks.constructEvent accepts it', async () => {
    const { subscription, session } = await subscribeThroughCheckout(emulator);
    await flush();
    const sequence = [
      'customer.created',
      'customer.subscription.created',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
      'checkout.session.completed',
    ];
    expect(
      verifiedEvents()
        .map((event) => event.type)
        .sort(),
    ).toEqual([...sequence].sort());
    const listed = await stripe.events.list({ limit: 100 });
    expect(listed.data.map((event) => event.type).reverse()).toEqual(sequence);
    const completed = ofType<Stripe.CheckoutSessionCompletedEvent>('checkout.session.completed');
    expect(completed).toMatchObject({
      object: 'event',
      api_version: STRIPE_API_VERSION,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    expect(completed?.id).toMatch(/^evt_/);
    expect(completed?.data.object).toMatchObject({
      id: session.id,
      status: 'complete',
      client_reference_id: 'user-1',
      subscription: subscription?.id,
    });
    const created = ofType<Stripe.CustomerSubscriptionCreatedEvent>('customer.subscription.created');
    expect(created?.data.object.status).toBe('incomplete');
    expect(created?.data.object.latest_invoice).toBe(subscription?.latest_invoice);
    const activated = ofType<Stripe.CustomerSubscriptionUpdatedEvent>('customer.subscription.updated');
    expect(activated?.data.object.status).toBe('active');
    expect(activated?.data.previous_attributes).toEqual({ status: 'incomplete' });

    const first = receiver.received[0];
    expect(first?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first?.headers['user-agent']).toBe('Stripe/1.0 (+https://stripe.com/docs/webhooks)');
    const timestamp = Number(/t=(\d+)/.exec(String(first?.headers['stripe-signature']))?.[1]);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(10);
  });

  it('uses the same scheme as generateTestHeaderString', () => {
    const payload = '{"id":"evt_1"}';
    expect(signatureHeader(payload, 'whsec_x', 1_700_000_000)).toBe(
      stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_x', timestamp: 1_700_000_000 }),
    );
  });

  it('fails verification of a tampered body or with another secret', async () => {
    await stripe.customers.create({ email: 'ada@example.com' });
    await flush();
    const delivery = receiver.received[0];
    const header = delivery?.headers['stripe-signature'] as string;
    const tampered = (delivery?.body ?? '').replace('ada@example.com', 'eve@example.com');
    expect(() => stripe.webhooks.constructEvent(tampered, header, SANDBOX_STRIPE_WEBHOOK_SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() => verify(0, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(verify(0).type).toBe('customer.created');
  });

  it('attributes events to the API request that caused them', async () => {
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const updated = await stripe.customers.update(
      customer.id,
      { name: 'Ada' },
      { idempotencyKey: 'update-1' },
    );
    await flush();
    const event = ofType<Stripe.CustomerUpdatedEvent>('customer.updated');
    expect(event?.request).toEqual({ id: updated.lastResponse.requestId, idempotency_key: 'update-1' });
    expect(event?.data.previous_attributes).toEqual({ name: null });
  });

  it('sends portal changes as customer.subscription.updated with previous attributes', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator);
    await flush();
    receiver.received.length = 0;
    await stripe.subscriptions.update(subscription?.id ?? '', { cancel_at_period_end: true });
    await flush();
    const event = verify(0) as Stripe.CustomerSubscriptionUpdatedEvent;
    expect(event.data.object.cancel_at_period_end).toBe(true);
    expect(event.data.previous_attributes).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
  });

  it('only sends the enabled event types, but records them all', async () => {
    await emulator.control('/_emulator/webhook', {
      url: receiver.url,
      enabledEvents: ['checkout.session.completed'],
    });
    await subscribeThroughCheckout(emulator);
    await flush();
    expect(verifiedEvents().map((event) => event.type)).toEqual(['checkout.session.completed']);
    expect((await stripe.events.list({ limit: 100 })).data.length).toBeGreaterThan(1);
  });
});

describe('delivery failures and faults', () => {
  it('retries a failed delivery until the endpoint accepts it', async () => {
    receiver.failNext(2);
    await stripe.customers.create({ email: 'ada@example.com' });
    await flush();
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receivedIds()).size).toBe(1);
    const state = (await (await emulator.control('/_emulator/webhook', undefined, 'GET')).json()) as {
      deliveries: { attempt: number; status: number }[];
    };
    expect(state.deliveries.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it('duplicates a delivery: the same event id twice', async () => {
    await emulator.control('/_emulator/notifications/faults', { mode: 'duplicate', times: 1 });
    await stripe.customers.create({ email: 'ada@example.com' });
    await flush();
    expect(receivedIds()).toHaveLength(2);
    expect(new Set(receivedIds()).size).toBe(1);
  });

  it('reorders deliveries: an event is held back until the next one goes out', async () => {
    await emulator.control('/_emulator/notifications/faults', { mode: 'reorder', times: 1 });
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.received).toHaveLength(0);
    await stripe.customers.update(customer.id, { name: 'Ada' });
    await flush();
    expect(
      verifiedEvents()
        .map((event) => event.type)
        .sort(),
    ).toEqual(['customer.created', 'customer.updated']);
    const log = (await (await emulator.control('/_emulator/notifications', undefined, 'GET')).json()) as {
      deliveries: unknown[];
    };
    expect(log.deliveries).toHaveLength(2);
  });

  it('drops a delivery; the event stays readable through the Events API', async () => {
    await emulator.control('/_emulator/notifications/faults', { mode: 'drop', times: 1 });
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    await flush();
    expect(receiver.received).toHaveLength(0);
    const [event] = (await stripe.events.list({ type: 'customer.created' })).data;
    expect((event?.data.object as Stripe.Customer | undefined)?.id).toBe(customer.id);
    const retrieved = await stripe.events.retrieve(event?.id ?? '');
    expect(retrieved.id).toBe(event?.id);
  });

  it('delays a delivery', async () => {
    await emulator.control('/_emulator/notifications/faults', { mode: 'delay', delayMs: 150, times: 1 });
    await stripe.customers.create({ email: 'ada@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.received).toHaveLength(0);
    await flush();
    expect(receiver.received).toHaveLength(1);
  });

  it('clears notification faults', async () => {
    await emulator.control('/_emulator/notifications/faults', { mode: 'drop' });
    await emulator.control('/_emulator/notifications/faults', undefined, 'DELETE');
    await stripe.customers.create({ email: 'ada@example.com' });
    await flush();
    expect(receiver.received).toHaveLength(1);
  });

  it('rejects a malformed fault', async () => {
    const response = await emulator.control('/_emulator/notifications/faults', { mode: 'explode' });
    expect(response.status).toBe(400);
  });
});

describe('factory options', () => {
  it('delivers to webhookUrl signed with webhookSecret from the options', async () => {
    const own = await startReceiver();
    const configured = await startTestEmulator({ webhookUrl: own.url, webhookSecret: 'whsec_custom' });
    try {
      await configured.stripe.customers.create({ email: 'ada@example.com' });
      await configured.control('/_emulator/webhook/flush');
      const delivery = own.received[0];
      const event = stripe.webhooks.constructEvent(
        delivery?.body ?? '',
        delivery?.headers['stripe-signature'] as string,
        'whsec_custom',
      );
      expect(event.type).toBe('customer.created');
    } finally {
      await configured.app.close();
      await own.app.close();
    }
  });
});
