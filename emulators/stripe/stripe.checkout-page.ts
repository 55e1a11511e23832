import type { FastifyInstance, FastifyReply } from 'fastify';
import type Stripe from 'stripe';
import { readParams } from '../shared/params.ts';
import { checkCard } from './stripe.cards.ts';
import { type CheckoutDeps, completeCheckout } from './stripe.checkout-flow.ts';
import {
  escapeHtml,
  formatDate,
  formatRecurringPrice,
  renderMessagePage,
  renderStripePage,
} from './stripe.page-layout.ts';

export const DEFAULT_TEST_CARD = '4242 4242 4242 4242';

type Form = {
  email: string;
  cardNumber: string;
  cardExpiry: string;
  cardCvc: string;
  cardholderName: string;
};

function renderCheckout(deps: CheckoutDeps, session: Stripe.Checkout.Session, form: Form, error?: string) {
  const plan = deps.store.sessionPlans.get(session.id);
  const price = plan ? deps.store.prices.get(plan.price) : undefined;
  const product = price ? deps.store.products.get(price.product as string) : undefined;
  const customer = session.customer ? deps.store.customers.get(session.customer as string) : undefined;
  const fixedEmail = customer?.email ?? session.customer_email;
  const trialDays = plan?.trialEnd
    ? Math.round((plan.trialEnd - deps.clock.now()) / 86_400)
    : plan?.trialPeriodDays;
  const priceText = price ? formatRecurringPrice(price) : '';
  // A `trial_end` is the first charge to the second; the day count is only the page's rounding of it.
  const firstCharge = plan?.trialEnd ?? deps.clock.now() + (trialDays ?? 0) * 86_400;
  const summary = trialDays
    ? `<p class="price">${trialDays} days free</p><p class="muted">Then ${escapeHtml(priceText)} starting ${formatDate(firstCharge)}</p>`
    : `<p class="price">${escapeHtml(priceText.replace(' per ', ' '))}</p><p class="muted">${escapeHtml(priceText)}</p>`;
  const back = session.cancel_url
    ? `<p><a class="back" href="${escapeHtml(session.cancel_url)}">← Back</a></p>`
    : '';
  const body = `
    ${back}
    <p class="muted">Subscribe to ${escapeHtml(product?.name ?? 'this product')}</p>
    ${summary}
    <form method="post" action="/c/pay/${escapeHtml(session.id)}">
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(fixedEmail ?? form.email)}"${fixedEmail ? ' readonly' : ''}>
      </div>
      <div class="field">
        <label for="cardNumber">Card number</label>
        <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" value="${escapeHtml(form.cardNumber)}">
      </div>
      <div class="row">
        <div class="field">
          <label for="cardExpiry">Expiry</label>
          <input id="cardExpiry" name="cardExpiry" autocomplete="cc-exp" value="${escapeHtml(form.cardExpiry)}">
        </div>
        <div class="field">
          <label for="cardCvc">CVC</label>
          <input id="cardCvc" name="cardCvc" autocomplete="cc-csc" value="${escapeHtml(form.cardCvc)}">
        </div>
      </div>
      <div class="field">
        <label for="cardholderName">Cardholder name</label>
        <input id="cardholderName" name="cardholderName" autocomplete="cc-name" value="${escapeHtml(form.cardholderName)}">
      </div>
      ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
      <button type="submit" class="primary">Subscribe</button>
    </form>
    <p class="note">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0341 pays now and fails at renewal; 4000 0000 0000 0002 is declined.</p>`;
  return renderStripePage(`${product?.name ?? 'Checkout'} · Checkout`, body);
}

/** The hosted Checkout page at a session's `url`. */
export function registerCheckoutPage(app: FastifyInstance, deps: CheckoutDeps): void {
  const sessionPage = (reply: FastifyReply, id: string) => {
    const session = deps.store.checkoutSessions.get(id);
    if (!session) {
      reply
        .code(404)
        .type('text/html')
        .send(renderMessagePage('Page not found', 'This Checkout link is not valid.'));
      return undefined;
    }
    if (session.status === 'expired') {
      reply
        .type('text/html')
        .send(renderMessagePage('Checkout expired', 'This Checkout Session has expired.'));
      return undefined;
    }
    if (session.status === 'complete') {
      const link = session.success_url ? { href: successUrl(session), label: 'Continue' } : undefined;
      reply
        .type('text/html')
        .send(renderMessagePage('Payment complete', 'This Checkout Session is already complete.', link));
      return undefined;
    }
    return session;
  };

  app.get('/c/pay/:id', async (request, reply) => {
    const session = sessionPage(reply, (request.params as { id: string }).id);
    if (!session) return reply;
    const form = {
      email: '',
      cardNumber: DEFAULT_TEST_CARD,
      cardExpiry: '12 / 34',
      cardCvc: '123',
      cardholderName: '',
    };
    return reply.type('text/html').send(renderCheckout(deps, session, form));
  });

  app.post('/c/pay/:id', async (request, reply) => {
    const session = sessionPage(reply, (request.params as { id: string }).id);
    if (!session) return reply;
    const input = readParams(request.body);
    const form: Form = {
      email: input.email?.trim() ?? '',
      cardNumber: input.cardNumber ?? '',
      cardExpiry: input.cardExpiry ?? '',
      cardCvc: input.cardCvc ?? '',
      cardholderName: input.cardholderName?.trim() ?? '',
    };
    const fail = (message: string) =>
      reply.type('text/html').send(renderCheckout(deps, session, form, message));
    const customer = session.customer ? deps.store.customers.get(session.customer as string) : undefined;
    const email = customer?.email ?? session.customer_email ?? form.email;
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) return fail('Your email address is incomplete.');

    const plan = deps.store.sessionPlans.get(session.id);
    const trial = plan?.trialEnd !== undefined || plan?.trialPeriodDays !== undefined;
    const cardOptional = trial && session.payment_method_collection === 'if_required';
    let card: Parameters<typeof completeCheckout>[2]['card'];
    if (form.cardNumber.trim() !== '' || !cardOptional) {
      const check = checkCard(form.cardNumber);
      if (!check.ok) return fail(check.decline.message);
      card = { brand: check.brand, last4: check.last4, failsCharges: check.failsCharges };
    }
    completeCheckout(deps, session, { email, name: form.cardholderName || null, card });
    if (!session.success_url) {
      return reply
        .type('text/html')
        .send(renderMessagePage('Thanks for subscribing', 'Your subscription is active.'));
    }
    return reply.redirect(successUrl(session), 303);
  });
}

function successUrl(session: Stripe.Checkout.Session): string {
  return (session.success_url ?? '').replaceAll('{CHECKOUT_SESSION_ID}', session.id);
}
