import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { type ApiDeps, expanded } from './stripe.api.ts';
import { noSuch } from './stripe.errors.ts';
import { stripeId } from './stripe.ids.ts';
import { parseParams, portalSessionCreateParams } from './stripe.schemas.ts';

export const PORTAL_CONFIGURATION = 'bpc_1SandboxPortalConfig000';

/** `POST /v1/billing_portal/sessions`: a link to the customer portal page for one customer. */
export function registerPortalRoutes(scope: FastifyInstance, deps: ApiDeps): void {
  scope.post('/billing_portal/sessions', async (request) => {
    const params = parseParams(portalSessionCreateParams, request.body);
    if (!deps.store.customers.has(params.customer)) throw noSuch('customer', params.customer, 'customer');
    const id = stripeId('portalSession');
    const session: Stripe.BillingPortal.Session = {
      id,
      object: 'billing_portal.session',
      configuration: params.configuration ?? PORTAL_CONFIGURATION,
      created: deps.clock.now(),
      customer: params.customer,
      customer_account: null,
      flow: null,
      livemode: false,
      locale: (params.locale as Stripe.BillingPortal.Session.Locale | undefined) ?? null,
      on_behalf_of: null,
      return_url: params.return_url ?? null,
      url: `${deps.getOrigin()}/p/session/${id}`,
    };
    deps.store.portalSessions.set(id, session);
    return expanded(deps, session, params.expand);
  });
}
