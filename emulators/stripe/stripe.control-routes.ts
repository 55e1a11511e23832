import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Notifier, registerNotificationControls } from '../shared/notifier.ts';
import { advanceClock } from './stripe.billing-cycle.ts';
import { checkCard } from './stripe.cards.ts';
import { type CheckoutDeps, completeCheckout, saveCard } from './stripe.checkout-flow.ts';
import { DEFAULT_TEST_CARD } from './stripe.checkout-page.ts';
import { subscriptionStatuses } from './stripe.schemas.ts';
import type { WebhookEndpoint } from './stripe.webhooks.ts';

const advanceSchema = z
  .object({ seconds: z.number().int().min(0).optional(), days: z.number().min(0).optional() })
  .refine((body) => body.seconds !== undefined || body.days !== undefined, 'seconds or days is required');
const webhookSchema = z.object({
  url: z.url().nullable(),
  secret: z.string().min(1).optional(),
  enabledEvents: z.array(z.string()).min(1).optional(),
  /** Also restore this URL on `POST /_emulator/reset` (how `startEmulators` wires the sandbox app). */
  keepOnReset: z.boolean().optional(),
});
const statusSchema = z.object({ status: z.enum(subscriptionStatuses) });
const cardSchema = z.object({ number: z.string() });
const completeSchema = z.object({
  email: z.string().optional(),
  name: z.string().optional(),
  card: z.string().optional(),
});

type ControlDeps = CheckoutDeps & {
  notifier: Notifier;
  /** The endpoint `POST /_emulator/reset` restores; `keepOnReset` changes its URL. */
  defaultEndpoint: WebhookEndpoint;
};

const invalid = (issues: unknown) => ({ error: 'invalid request', issues });

/** Test and sandbox controls beyond state/reset/faults: clock, forced statuses, webhook endpoint. */
export function registerControlRoutes(app: FastifyInstance, deps: ControlDeps): void {
  const { store, events, billing, notifier } = deps;

  app.get('/_emulator/clock', async () => ({
    now: deps.clock.now(),
    offsetSeconds: deps.clock.offsetSeconds,
  }));
  app.post('/_emulator/clock/advance', async (request, reply) => {
    const parsed = advanceSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    const seconds = (parsed.data.seconds ?? 0) + Math.round((parsed.data.days ?? 0) * 86_400);
    return { ...advanceClock(deps, seconds), offsetSeconds: deps.clock.offsetSeconds };
  });

  app.post('/_emulator/subscriptions/:id/status', async (request, reply) => {
    const subscription = store.subscriptions.get((request.params as { id: string }).id);
    if (!subscription) return reply.code(404).send({ error: 'no such subscription' });
    const parsed = statusSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    const { status } = parsed.data;
    if (status === 'canceled') billing.cancelNow(subscription, null);
    else {
      const wasPaused = subscription.status === 'paused';
      billing.update(subscription, () => {
        subscription.status = status;
        subscription.ended_at = null;
      });
      if (status === 'paused' && !wasPaused) events.emit('customer.subscription.paused', subscription);
      if (wasPaused && status !== 'paused') events.emit('customer.subscription.resumed', subscription);
    }
    return subscription;
  });

  app.post('/_emulator/customers/:id/card', async (request, reply) => {
    const customer = store.customers.get((request.params as { id: string }).id);
    if (!customer) return reply.code(404).send({ error: 'no such customer' });
    const parsed = cardSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    const check = checkCard(parsed.data.number);
    if (!check.ok) return reply.code(402).send({ error: check.decline.message });
    return saveCard(deps, customer, {
      brand: check.brand,
      last4: check.last4,
      failsCharges: check.failsCharges,
    });
  });

  /** Completes a Checkout Session as submitting its page would (for end-to-end tests without a browser). */
  app.post('/_emulator/checkout/sessions/:id/complete', async (request, reply) => {
    const session = store.checkoutSessions.get((request.params as { id: string }).id);
    if (!session) return reply.code(404).send({ error: 'no such checkout session' });
    if (session.status !== 'open') return reply.code(409).send({ error: `session is ${session.status}` });
    const parsed = completeSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    const check = checkCard(parsed.data.card ?? DEFAULT_TEST_CARD);
    if (!check.ok) return reply.code(402).send({ error: check.decline.message });
    const customer = session.customer ? store.customers.get(session.customer as string) : undefined;
    const email =
      customer?.email ?? session.customer_email ?? parsed.data.email ?? 'sandbox.customer@example.com';
    const subscription = completeCheckout(deps, session, {
      email,
      name: parsed.data.name ?? null,
      card: { brand: check.brand, last4: check.last4, failsCharges: check.failsCharges },
    });
    const redirectUrl = session.success_url?.replaceAll('{CHECKOUT_SESSION_ID}', session.id) ?? null;
    return { session, subscription, redirectUrl };
  });

  app.get('/_emulator/webhook', async () => ({ ...events.endpoint, deliveries: notifier.deliveries() }));
  app.post('/_emulator/webhook', async (request, reply) => {
    const parsed = webhookSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    events.endpoint.url = parsed.data.url ?? undefined;
    if (parsed.data.keepOnReset) deps.defaultEndpoint.url = events.endpoint.url;
    if (parsed.data.secret) events.endpoint.secret = parsed.data.secret;
    if (parsed.data.enabledEvents) events.endpoint.enabledEvents = parsed.data.enabledEvents;
    return events.endpoint;
  });
  app.post('/_emulator/webhook/flush', async () => {
    await notifier.flush();
    return { deliveries: notifier.deliveries() };
  });

  registerNotificationControls(app, notifier);
}
