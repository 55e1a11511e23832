import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { parseForm, submitForm } from '../shared/testing/html-form.ts';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { startTestEmulator, subscribeThroughCheckout, type TestEmulator } from './stripe.test-support.ts';

let emulator: TestEmulator;
let stripe: Stripe;

setUpEmulator(startTestEmulator, (started) => {
  emulator = started;
  stripe = started.stripe;
});

async function rejection(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected the call to fail');
}

describe('prices and products', () => {
  it('finds both plans by lookup key, with the product expanded', async () => {
    const prices = await stripe.prices.list({
      lookup_keys: ['timeboxerMonthly', 'timeboxerYearly'],
      active: true,
      expand: ['data.product'],
    });
    expect(prices.object).toBe('list');
    expect(prices.has_more).toBe(false);
    const byKey = Object.fromEntries(prices.data.map((price) => [price.lookup_key, price]));
    expect(byKey.timeboxerMonthly).toMatchObject({
      object: 'price',
      unit_amount: 300,
      currency: 'usd',
      type: 'recurring',
      recurring: { interval: 'month', interval_count: 1 },
    });
    expect(byKey.timeboxerYearly).toMatchObject({ unit_amount: 2400, recurring: { interval: 'year' } });
    expect((byKey.timeboxerMonthly?.product as Stripe.Product | undefined)?.name).toBe('Timeboxer');
    expect(String(byKey.timeboxerMonthly?.unit_amount_decimal)).toBe('300');
  });

  it('accepts the appended array form lookup_keys[]= on the wire', async () => {
    const response = await fetch(
      `${emulator.origin}/v1/prices?lookup_keys[]=timeboxerYearly&expand[]=data.product`,
      { headers: { authorization: 'Bearer sk_test_sandbox' } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const body = (await response.json()) as { data: { lookup_key: string; product: { object: string } }[] };
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ lookup_key: 'timeboxerYearly', product: { object: 'product' } });
  });

  it('retrieves a price and ignores unknown lookup keys', async () => {
    const [monthly] = (await stripe.prices.list({ lookup_keys: ['timeboxerMonthly', 'nope'] })).data;
    expect(monthly?.lookup_key).toBe('timeboxerMonthly');
    const price = await stripe.prices.retrieve(monthly?.id ?? '');
    expect(price.id).toBe(monthly?.id);
    expect(price.product).toMatch(/^prod_/);
  });

  it('answers 404 resource_missing for an unknown price', async () => {
    const error = await rejection(stripe.prices.retrieve('price_missing'));
    expect(error.type).toBe('StripeInvalidRequestError');
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe('resource_missing');
    expect(error.message).toBe("No such price: 'price_missing'");
    expect(error.doc_url).toBe('https://stripe.com/docs/error-codes/resource-missing');
  });
});

describe('customers', () => {
  it('creates, retrieves, updates and lists customers by email', async () => {
    const created = await stripe.customers.create({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      metadata: { userId: 'user-1' },
    });
    expect(created.id).toMatch(/^cus_/);
    expect(created).toMatchObject({
      object: 'customer',
      email: 'ada@example.com',
      metadata: { userId: 'user-1' },
    });
    await stripe.customers.create({ email: 'grace@example.com' });

    const retrieved = await stripe.customers.retrieve(created.id);
    expect(retrieved).toMatchObject({ id: created.id, name: 'Ada Lovelace' });

    const updated = await stripe.customers.update(created.id, {
      name: 'Ada King',
      metadata: { plan: 'pro', userId: '' },
    });
    expect(updated.name).toBe('Ada King');
    expect(updated.metadata).toEqual({ plan: 'pro' });

    const listed = await stripe.customers.list({ email: 'ada@example.com', limit: 1 });
    expect(listed.data.map((customer) => customer.id)).toEqual([created.id]);
    expect(listed.url).toBe('/v1/customers');
  });

  it('paginates newest first with starting_after', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await stripe.customers.create({ email: `c${n}@example.com` })).id);
    const first = await stripe.customers.list({ limit: 2 });
    expect(first.data.map((customer) => customer.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = await stripe.customers.list({ limit: 2, starting_after: ids[1] });
    expect(second.data.map((customer) => customer.id)).toEqual([ids[0]]);
    expect(second.has_more).toBe(false);
  });

  it('deletes a customer and answers the deleted stub afterwards', async () => {
    const customer = await stripe.customers.create({ email: 'gone@example.com' });
    const deleted = await stripe.customers.del(customer.id);
    expect(deleted).toMatchObject({ id: customer.id, deleted: true });
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ deleted: true });
  });
});

describe('Checkout', () => {
  it('creates an open subscription-mode session with a hosted page', async () => {
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const [price] = (await stripe.prices.list({ lookup_keys: ['timeboxerYearly'] })).data;
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price?.id ?? '', quantity: 1 }],
      customer: customer.id,
      client_reference_id: 'user-1',
      success_url: 'http://localhost:3000/ok?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/billing',
      metadata: { userId: 'user-1' },
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customer.id,
      client_reference_id: 'user-1',
      metadata: { userId: 'user-1' },
      amount_total: 2400,
      subscription: null,
    });
    expect(session.url).toBe(`${emulator.origin}/c/pay/${session.id}`);

    const page = await fetch(session.url ?? '');
    const html = await page.text();
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('Timeboxer');
    expect(html).toContain('$24.00 per year');
    expect(html).toContain('Subscribe');
    expect(html).toContain('href="http://localhost:3000/billing"');
    const { fields } = parseForm(html);
    expect(fields).toMatchObject({ email: 'ada@example.com', cardNumber: '4242 4242 4242 4242' });
  });

  it('completes through the page: customer, active subscription, paid invoice, redirect', async () => {
    const { session, response, subscription } = await subscribeThroughCheckout(emulator, {
      email: 'new@example.com',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `http://localhost:3000/billing/success?session_id=${session.id}`,
    );
    expect(session).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect(session.customer).toMatch(/^cus_/);
    expect(session.customer_details?.email).toBe('new@example.com');
    expect(subscription).toMatchObject({
      object: 'subscription',
      status: 'active',
      customer: session.customer,
    });
    expect(subscription?.cancel_at_period_end).toBe(false);
    const item = subscription?.items.data[0];
    expect(item?.price.lookup_key).toBe('timeboxerMonthly');
    expect(item?.current_period_end).toBeGreaterThan(item?.current_period_start ?? Infinity);

    const invoice = await stripe.invoices.retrieve(subscription?.latest_invoice as string);
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 300,
      billing_reason: 'subscription_create',
    });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription?.id);

    const customer = (await stripe.customers.retrieve(session.customer as string)) as Stripe.Customer;
    expect(customer.email).toBe('new@example.com');
  });

  it('takes the email typed on the page when the session names no customer', async () => {
    const [price] = (await stripe.prices.list({ lookup_keys: ['timeboxerMonthly'] })).data;
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price?.id ?? '', quantity: 1 }],
      success_url: 'http://localhost:3000/ok',
    });
    const url = session.url ?? '';
    const html = await (await fetch(url)).text();
    const empty = await submitForm(url, html, {});
    expect(await empty.text()).toContain('Your email address is incomplete.');
    const response = await submitForm(url, html, { email: 'typed@example.com', cardholderName: 'Ty Ped' });
    expect(response.status).toBe(303);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['customer'] });
    expect(done.customer).toMatchObject({ email: 'typed@example.com', name: 'Ty Ped' });
  });

  it('starts a trial without charging when trial_period_days is set', async () => {
    const { session, subscription } = await subscribeThroughCheckout(emulator, { trialDays: 14 });
    expect(session.payment_status).toBe('no_payment_required');
    expect(subscription?.status).toBe('trialing');
    expect((subscription?.trial_end ?? 0) - (subscription?.trial_start ?? 0)).toBe(14 * 86_400);
    expect(subscription?.items.data[0]?.current_period_end).toBe(subscription?.trial_end);
  });

  it('re-renders the page on a declined card and leaves the session open', async () => {
    const { session, response } = await subscribeThroughCheckout(emulator, { card: '4000 0000 0000 0002' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Your card was declined.');
    expect(session.status).toBe('open');
    expect(session.subscription).toBeNull();
  });

  it('keeps a session open when the visitor goes back, and expires it on request', async () => {
    const [price] = (await stripe.prices.list({ lookup_keys: ['timeboxerMonthly'] })).data;
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price?.id ?? '', quantity: 1 }],
      success_url: 'http://localhost:3000/ok',
      cancel_url: 'http://localhost:3000/billing',
    });
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired.status).toBe('expired');
    const page = await (await fetch(session.url ?? '')).text();
    expect(page).toContain('expired');
    const error = await rejection(stripe.checkout.sessions.expire(session.id));
    expect(error.statusCode).toBe(400);
  });

  it('lists line items when expanded', async () => {
    const { session } = await subscribeThroughCheckout(emulator);
    const withItems = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] });
    expect(withItems.line_items?.data[0]).toMatchObject({ quantity: 1, amount_total: 300 });
  });

  it('rejects bad parameters with Stripe 400s', async () => {
    const missing = await rejection(
      stripe.checkout.sessions.create({ line_items: [{ price: 'price_x', quantity: 1 }] } as never),
    );
    expect(missing).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'mode' });

    const unknownPrice = await rejection(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: 'price_x', quantity: 1 }],
      }),
    );
    expect(unknownPrice).toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'line_items[0][price]',
    });

    const badEnum = await rejection(stripe.checkout.sessions.create({ mode: 'rental' as never }));
    expect(badEnum.message).toBe('Invalid mode: must be one of payment, setup, or subscription');

    const both = await rejection(
      stripe.checkout.sessions.create({ mode: 'subscription', customer: 'cus_x', customer_email: 'a@b.c' }),
    );
    expect(both).toMatchObject({ statusCode: 400, code: 'parameters_exclusive' });

    const badUrl = await rejection(
      stripe.checkout.sessions.create({ mode: 'subscription', success_url: 'javascript:alert(1)' }),
    );
    expect(badUrl).toMatchObject({ statusCode: 400, code: 'url_invalid', param: 'success_url' });

    const badInteger = await rejection(
      stripe.paymentIntents.create({ amount: 'lots' as never, currency: 'usd' }),
    );
    expect(badInteger).toMatchObject({ code: 'parameter_invalid_integer', param: 'amount' });
  });
});

describe('customer portal', () => {
  it('cancels at period end and resumes through the portal page', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator);
    const portal = await stripe.billingPortal.sessions.create({
      customer: subscription?.customer as string,
      return_url: 'http://localhost:3000/settings/billing',
    });
    expect(portal.id).toMatch(/^bps_/);
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      return_url: 'http://localhost:3000/settings/billing',
    });
    expect(portal.url).toBe(`${emulator.origin}/p/session/${portal.id}`);

    const html = await (await fetch(portal.url)).text();
    expect(html).toContain('$3.00 per month');
    expect(html).toContain('Cancel subscription');
    expect(html).toContain('href="http://localhost:3000/settings/billing"');
    const cancel = await submitForm(portal.url, html, { action: 'cancel' });
    expect(cancel.status).toBe(303);
    expect(new URL(cancel.headers.get('location') ?? '', portal.url).href).toBe(portal.url);

    const canceling = await stripe.subscriptions.retrieve(subscription?.id ?? '');
    expect(canceling).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(canceling.cancel_at).toBe(canceling.items.data[0]?.current_period_end);
    expect(canceling.cancellation_details?.reason).toBe('cancellation_requested');

    const after = await (await fetch(portal.url)).text();
    expect(after).toContain('Renew subscription');
    await submitForm(portal.url, after, { action: 'resume' });
    const resumed = await stripe.subscriptions.retrieve(subscription?.id ?? '');
    expect(resumed).toMatchObject({ cancel_at_period_end: false, cancel_at: null, canceled_at: null });
  });

  it('cancels immediately through the portal page', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator);
    const portal = await stripe.billingPortal.sessions.create({ customer: subscription?.customer as string });
    const html = await (await fetch(portal.url)).text();
    await submitForm(portal.url, html, { action: 'cancel_now' });
    const canceled = await stripe.subscriptions.retrieve(subscription?.id ?? '');
    expect(canceled.status).toBe('canceled');
    expect(canceled.ended_at).not.toBeNull();
    expect(await (await fetch(portal.url)).text()).toContain('No active subscriptions');
  });

  it('requires an existing customer', async () => {
    const error = await rejection(stripe.billingPortal.sessions.create({ customer: 'cus_missing' }));
    expect(error).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' });
  });
});

describe('subscriptions', () => {
  it('retrieves, lists, updates and cancels', async () => {
    const { subscription } = await subscribeThroughCheckout(emulator);
    const id = subscription?.id ?? '';
    const customer = subscription?.customer as string;

    const expanded = await stripe.subscriptions.retrieve(id, { expand: ['customer', 'latest_invoice'] });
    expect((expanded.customer as Stripe.Customer).id).toBe(customer);
    expect((expanded.latest_invoice as Stripe.Invoice).status).toBe('paid');

    const listed = await stripe.subscriptions.list({ customer, status: 'active' });
    expect(listed.data.map((sub) => sub.id)).toEqual([id]);

    const updated = await stripe.subscriptions.update(id, {
      cancel_at_period_end: true,
      metadata: { a: 'b' },
    });
    expect(updated).toMatchObject({ cancel_at_period_end: true, metadata: { a: 'b' } });

    const itemId = updated.items.data[0]?.id ?? '';
    const [yearly] = (await stripe.prices.list({ lookup_keys: ['timeboxerYearly'] })).data;
    const switched = await stripe.subscriptions.update(id, {
      cancel_at_period_end: false,
      items: [{ id: itemId, price: yearly?.id ?? '' }],
    });
    expect(switched.items.data[0]?.price.lookup_key).toBe('timeboxerYearly');
    expect(switched.items.data[0]?.plan.interval).toBe('year');
    expect(switched.status).toBe('active');
    const invoice = await stripe.invoices.retrieve(switched.latest_invoice as string);
    expect(invoice.amount_paid).toBe(2400);

    const canceled = await stripe.subscriptions.cancel(id);
    expect(canceled.status).toBe('canceled');
    expect((await stripe.subscriptions.list({ customer })).data).toEqual([]);
    expect((await stripe.subscriptions.list({ customer, status: 'canceled' })).data).toHaveLength(1);
    const again = await rejection(stripe.subscriptions.cancel(id));
    expect(again.statusCode).toBe(400);
  });

  it('answers 404 for an unknown subscription', async () => {
    const error = await rejection(stripe.subscriptions.retrieve('sub_missing'));
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });
});

describe('payment intents', () => {
  it('creates one with a client secret and retrieves it', async () => {
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const intent = await stripe.paymentIntents.create({
      amount: 2400,
      currency: 'usd',
      customer: customer.id,
      automatic_payment_methods: { enabled: true },
      metadata: { userId: 'user-1' },
    });
    expect(intent.id).toMatch(/^pi_/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_\\w+$`));
    expect(intent).toMatchObject({
      object: 'payment_intent',
      amount: 2400,
      currency: 'usd',
      status: 'requires_payment_method',
      automatic_payment_methods: { enabled: true },
    });
    const retrieved = await stripe.paymentIntents.retrieve(intent.id);
    expect(retrieved.client_secret).toBe(intent.client_secret);
  });
});

describe('idempotency keys', () => {
  it('replays the first response for the same key and body', async () => {
    const first = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'key-1' });
    const second = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'key-1' });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect((await stripe.customers.list({ email: 'once@example.com' })).data).toHaveLength(1);
  });

  it('rejects the same key with another body', async () => {
    await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'key-2' });
    const error = await rejection(
      stripe.customers.create({ email: 'b@example.com' }, { idempotencyKey: 'key-2' }),
    );
    expect(error.type).toBe('StripeIdempotencyError');
    expect(error.statusCode).toBe(400);
  });
});

describe('errors', () => {
  it('answers 401 for a bad API key', async () => {
    const error = await rejection(emulator.sdk('sk_test_wrongwrongwrong').customers.list());
    expect(error.type).toBe('StripeAuthenticationError');
    expect(error.statusCode).toBe(401);
    expect(error.message).toMatch(/^Invalid API Key provided: sk_test_/);
    expect(error.message).not.toContain('wrongwrongwrong');
  });

  it('answers 429 with Retry-After through a fault rule', async () => {
    await emulator.control('/_emulator/faults', {
      kind: 'rate-limit',
      path: '/v1/customers',
      times: 1,
      retryAfterSeconds: 2,
    });
    const error = await rejection(stripe.customers.list());
    expect(error.type).toBe('StripeRateLimitError');
    expect(error.statusCode).toBe(429);
    expect(error.code).toBe('rate_limit');
    expect(error.headers?.['retry-after']).toBe('2');
    expect((await stripe.customers.list()).object).toBe('list');
  });

  it('answers 500 api_error through a fault rule', async () => {
    await emulator.control('/_emulator/faults', {
      kind: 'status',
      status: 500,
      path: '/v1/prices',
      times: 1,
    });
    const error = await rejection(stripe.prices.list());
    expect(error.type).toBe('StripeAPIError');
    expect(error.statusCode).toBe(500);
  });

  it('answers 404 for an unknown URL', async () => {
    const response = await fetch(`${emulator.origin}/v1/nothing`, {
      headers: { authorization: 'Bearer sk_test_sandbox' },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('counts requests per endpoint in the state', async () => {
    await stripe.prices.list({ lookup_keys: ['timeboxerMonthly'] });
    const state = (await (await emulator.control('/_emulator/state', undefined, 'GET')).json()) as {
      requests: Record<string, number>;
    };
    expect(state.requests['GET /v1/prices']).toBe(1);
  });
});
