/** Test support: an emulator on an ephemeral port with an SDK client, and a webhook receiver. */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { submitForm } from '../shared/testing/html-form.ts';
import {
  createStripeEmulator,
  SANDBOX_STRIPE_SECRET_KEY,
  type StripeEmulatorOptions,
} from './stripe.emulator.ts';

export type TestEmulator = {
  app: FastifyInstance;
  origin: string;
  port: number;
  stripe: Stripe;
  sdk(key: string, config?: Stripe.StripeConfig): Stripe;
  control(path: string, body?: unknown, method?: string): Promise<Response>;
  close(): Promise<void>;
};

export async function startTestEmulator(
  options: Omit<StripeEmulatorOptions, 'getOrigin'> = {},
): Promise<TestEmulator> {
  let origin = '';
  const app = await createStripeEmulator({
    webhookRetryBaseDelayMs: 20,
    ...options,
    getOrigin: () => origin,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  const sdk = (key: string, config: Stripe.StripeConfig = {}) =>
    new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, ...config });
  return {
    app,
    origin,
    port,
    stripe: sdk(SANDBOX_STRIPE_SECRET_KEY),
    sdk,
    control: (path, body, method = 'POST') =>
      fetch(`${origin}${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      }),
    close: () => app.close(),
  };
}

export type ReceivedWebhook = { headers: Record<string, string | string[] | undefined>; body: string };

export type Receiver = {
  app: FastifyInstance;
  url: string;
  received: ReceivedWebhook[];
  /** The next `count` deliveries are answered with `status`. */
  failNext(count: number, status?: number): void;
};

/** A local endpoint that keeps each raw body, as a webhook handler must to verify signatures. */
export async function startReceiver(): Promise<Receiver> {
  const app = Fastify({ forceCloseConnections: true });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  const received: ReceivedWebhook[] = [];
  let failures = 0;
  let failureStatus = 500;
  app.post('/webhooks/stripe', async (request, reply) => {
    received.push({ headers: request.headers, body: request.body as string });
    if (failures > 0) {
      failures -= 1;
      return reply.code(failureStatus).send({ error: 'not now' });
    }
    return { received: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return {
    app,
    url: `http://127.0.0.1:${port}/webhooks/stripe`,
    received,
    failNext(count, status = 500) {
      failures = count;
      failureStatus = status;
    },
  };
}

/** Creates a subscription through Checkout's hosted page, like a visitor would. */
export async function subscribeThroughCheckout(
  emulator: TestEmulator,
  options: {
    customer?: string;
    email?: string;
    lookupKey?: string;
    card?: string;
    trialDays?: number;
    /** `subscription_data.trial_end`: the unix second the trial ends and the first charge is due. */
    trialEnd?: number;
    paymentMethodCollection?: 'always' | 'if_required';
    missingPaymentMethod?: 'cancel' | 'create_invoice' | 'pause';
  } = {},
) {
  const { stripe } = emulator;
  const prices = await stripe.prices.list({ lookup_keys: [options.lookupKey ?? 'timeboxerMonthly'] });
  const price = prices.data[0];
  if (!price) throw new Error('price not found');
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price: price.id, quantity: 1 }],
    ...(options.customer
      ? { customer: options.customer }
      : { customer_email: options.email ?? 'ada@example.com' }),
    client_reference_id: 'user-1',
    success_url: 'http://localhost:3000/billing/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:3000/billing',
    ...(options.paymentMethodCollection
      ? { payment_method_collection: options.paymentMethodCollection }
      : {}),
    ...(options.trialDays || options.trialEnd
      ? {
          subscription_data: {
            ...(options.trialDays ? { trial_period_days: options.trialDays } : {}),
            ...(options.trialEnd ? { trial_end: options.trialEnd } : {}),
            ...(options.missingPaymentMethod
              ? { trial_settings: { end_behavior: { missing_payment_method: options.missingPaymentMethod } } }
              : {}),
          },
        }
      : {}),
  });
  const url = session.url ?? '';
  const html = await (await fetch(url)).text();
  const response = await submitForm(
    url,
    html,
    options.card === undefined ? {} : { cardNumber: options.card },
  );
  const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
  return {
    session: completed,
    response,
    html,
    subscription: completed.subscription as Stripe.Subscription | null,
  };
}
