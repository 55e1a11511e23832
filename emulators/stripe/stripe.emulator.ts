import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { EmulatorFactoryOptions } from '../shared/emulator-options.ts';
import { installFaults } from '../shared/faults.ts';
import { createNotifier } from '../shared/notifier.ts';
import { countRequests } from '../shared/request-counter.ts';
import { type ApiDeps, installApiConventions } from './stripe.api.ts';
import { DEFAULT_DUNNING, type DunningOptions, StripeBilling } from './stripe.billing.ts';
import { type CatalogProduct, DEFAULT_CATALOG } from './stripe.catalog.ts';
import { registerCheckoutPage } from './stripe.checkout-page.ts';
import { registerCheckoutRoutes } from './stripe.checkout-routes.ts';
import { StripeClock } from './stripe.clock.ts';
import { registerControlRoutes } from './stripe.control-routes.ts';
import { registerCustomerRoutes } from './stripe.customer-routes.ts';
import { defaultErrorBody } from './stripe.errors.ts';
import { registerEventRoutes } from './stripe.event-routes.ts';
import { parseStripeForm } from './stripe.form.ts';
import { IdempotencyKeys } from './stripe.idempotency.ts';
import { registerPaymentRoutes } from './stripe.payment-routes.ts';
import { registerPortalPage } from './stripe.portal-page.ts';
import { registerPortalRoutes } from './stripe.portal-routes.ts';
import { registerPriceRoutes } from './stripe.price-routes.ts';
import { StripeStore } from './stripe.store.ts';
import { registerSubscriptionRoutes } from './stripe.subscription-routes.ts';
import { StripeEvents, type WebhookEndpoint } from './stripe.webhooks.ts';

export const SANDBOX_STRIPE_SECRET_KEY = 'sk_test_sandbox';
export const SANDBOX_STRIPE_WEBHOOK_SECRET = 'whsec_sandbox';
/** The API version stripe@23 pins; events carry it as `api_version`. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export type StripeEmulatorOptions = EmulatorFactoryOptions & {
  /** Secret keys accepted as `Authorization: Bearer …`; default `sk_test_sandbox`. */
  apiKeys?: readonly string[];
  /** Where events are POSTed; none = events are only recorded (settable via `POST /_emulator/webhook`). */
  webhookUrl?: string;
  /** The endpoint's signing secret; default `whsec_sandbox`. */
  webhookSecret?: string;
  apiVersion?: string;
  /** Products and prices to seed; default Timeboxer's monthly and yearly plans. */
  catalog?: readonly CatalogProduct[];
  dunning?: Partial<DunningOptions>;
  /** Webhook redelivery after a failure (non-2xx or network error). */
  webhookRetries?: number;
  webhookRetryBaseDelayMs?: number;
};

/** Stripe Billing: catalog, customers, Checkout (hosted page), customer portal, subscriptions, webhooks. */
export async function createStripeEmulator(options: StripeEmulatorOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    forceCloseConnections: true,
    routerOptions: { querystringParser: (query) => parseStripeForm(query) },
  });
  await app.register(formbody, { parser: (body) => parseStripeForm(body) });
  const counter = countRequests(app);
  const faults = installFaults(app, { errorBody: defaultErrorBody });

  const clock = new StripeClock();
  const catalog = options.catalog ?? DEFAULT_CATALOG;
  const store = new StripeStore(catalog, clock.now());
  const notifier = createNotifier({
    retries: options.webhookRetries ?? 3,
    retryBaseDelayMs: options.webhookRetryBaseDelayMs ?? 1000,
    timeoutMs: 10_000,
  });
  const apiVersion = options.apiVersion ?? STRIPE_API_VERSION;
  const initialEndpoint: WebhookEndpoint = {
    url: options.webhookUrl,
    secret: options.webhookSecret ?? SANDBOX_STRIPE_WEBHOOK_SECRET,
    enabledEvents: ['*'],
  };
  const events = new StripeEvents({ store, clock, notifier, apiVersion, endpoint: initialEndpoint });
  const billing = new StripeBilling(store, clock, events, { ...DEFAULT_DUNNING, ...options.dunning });
  const idempotency = new IdempotencyKeys();
  const deps: ApiDeps = {
    store,
    clock,
    events,
    billing,
    getOrigin: options.getOrigin,
    apiKeys: new Set(options.apiKeys ?? [SANDBOX_STRIPE_SECRET_KEY]),
    apiVersion,
  };

  await app.register(
    async (api) => {
      installApiConventions(api, deps, idempotency);
      registerPriceRoutes(api, deps);
      registerCustomerRoutes(api, deps);
      registerCheckoutRoutes(api, deps);
      registerPortalRoutes(api, deps);
      registerSubscriptionRoutes(api, deps);
      registerPaymentRoutes(api, deps);
      registerEventRoutes(api, deps);
    },
    { prefix: '/v1' },
  );
  registerCheckoutPage(app, deps);
  registerPortalPage(app, deps);
  registerControlRoutes(app, { ...deps, notifier, defaultEndpoint: initialEndpoint });

  app.get('/_emulator/state', async () => ({
    clock: { now: clock.now(), offsetSeconds: clock.offsetSeconds },
    ...store.snapshot(),
    webhook: { ...events.endpoint, deliveries: notifier.deliveries() },
    idempotencyKeys: idempotency.size,
    requests: counter.counts(),
  }));
  app.post('/_emulator/reset', async () => {
    clock.reset();
    store.reset(clock.now());
    idempotency.reset();
    notifier.reset();
    faults.clear();
    counter.reset();
    Object.assign(events.endpoint, initialEndpoint);
    return { reset: true };
  });

  return app;
}
