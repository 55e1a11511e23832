import type { FastifyInstance, FastifyReply } from 'fastify';
import type Stripe from 'stripe';
import { readParams } from '../shared/params.ts';
import type { CheckoutDeps } from './stripe.checkout-flow.ts';
import {
  escapeHtml,
  formatDate,
  formatRecurringPrice,
  renderMessagePage,
  renderStripePage,
} from './stripe.page-layout.ts';
import { firstItem } from './stripe.subscription-object.ts';

const ENDED = new Set(['canceled', 'incomplete_expired']);

function statusLine(subscription: Stripe.Subscription): string {
  const end = firstItem(subscription).current_period_end;
  if (subscription.cancel_at_period_end) return `Cancels ${formatDate(subscription.cancel_at ?? end)}`;
  if (subscription.status === 'trialing') return `Trial ends ${formatDate(subscription.trial_end ?? end)}`;
  if (subscription.status === 'past_due') return 'Payment failed: past due';
  if (subscription.status === 'active') return `Renews ${formatDate(end)}`;
  return `Status: ${subscription.status}`;
}

function renderSubscription(
  deps: CheckoutDeps,
  sessionId: string,
  subscription: Stripe.Subscription,
): string {
  const price = firstItem(subscription).price;
  const product = deps.store.products.get(price.product as string);
  const buttons = subscription.cancel_at_period_end
    ? '<button type="submit" name="action" value="resume" class="secondary">Renew subscription</button>'
    : `<button type="submit" name="action" value="cancel" class="danger">Cancel subscription</button>
        <button type="submit" name="action" value="cancel_now" class="danger">Cancel immediately</button>`;
  return `
    <div class="card">
      <strong>${escapeHtml(product?.name ?? 'Subscription')}</strong>
      <p class="muted">${escapeHtml(formatRecurringPrice(price))}</p>
      <p class="muted status">${escapeHtml(statusLine(subscription))}</p>
      <form method="post" action="/p/session/${escapeHtml(sessionId)}">
        <input type="hidden" name="subscription" value="${escapeHtml(subscription.id)}">
        <div class="actions">${buttons}</div>
      </form>
    </div>`;
}

/** The customer portal at a portal session's `url`: cancel at period end, renew, or cancel now. */
export function registerPortalPage(app: FastifyInstance, deps: CheckoutDeps): void {
  const { store, billing } = deps;
  const notFound = (reply: FastifyReply) =>
    reply
      .code(404)
      .type('text/html')
      .send(renderMessagePage('Page not found', 'This portal link is not valid.'));

  app.get('/p/session/:id', async (request, reply) => {
    const session = store.portalSessions.get((request.params as { id: string }).id);
    if (!session) return notFound(reply);
    const customer = store.customers.get(session.customer);
    const subscriptions = store.subscriptionsOf(session.customer).filter((sub) => !ENDED.has(sub.status));
    const list = subscriptions.length
      ? subscriptions.map((subscription) => renderSubscription(deps, session.id, subscription)).join('')
      : '<p class="muted">No active subscriptions.</p>';
    const back = session.return_url
      ? `<p><a class="return" href="${escapeHtml(session.return_url)}">← Return to Timeboxer</a></p>`
      : '';
    const body = `
      ${back}
      <h1>Billing</h1>
      <p class="muted">${escapeHtml(customer?.email ?? '')}</p>
      <h2>Current subscription</h2>
      ${list}`;
    return reply.type('text/html').send(renderStripePage('Billing · Customer portal', body));
  });

  app.post('/p/session/:id', async (request, reply) => {
    const session = store.portalSessions.get((request.params as { id: string }).id);
    if (!session) return notFound(reply);
    const { subscription: subscriptionId, action } = readParams(request.body);
    const subscription = subscriptionId ? store.subscriptions.get(subscriptionId) : undefined;
    if (!subscription || subscription.customer !== session.customer || ENDED.has(subscription.status)) {
      return reply
        .code(400)
        .type('text/html')
        .send(renderMessagePage('Not available', 'This subscription cannot be changed.'));
    }
    if (action === 'cancel') billing.setCancelAtPeriodEnd(subscription, true);
    else if (action === 'resume' || action === 'renew') billing.setCancelAtPeriodEnd(subscription, false);
    else if (action === 'cancel_now') billing.cancelNow(subscription, 'cancellation_requested');
    else return reply.code(400).type('text/html').send(renderMessagePage('Not available', 'Unknown action.'));
    return reply.redirect(`/p/session/${session.id}`, 303);
  });
}
