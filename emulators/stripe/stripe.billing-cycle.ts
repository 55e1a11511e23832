import type Stripe from 'stripe';
import { type CheckoutDeps, expireSession } from './stripe.checkout-flow.ts';
import { firstItem } from './stripe.subscription-object.ts';

type DueAction = { at: number; run: () => void };

const TRIAL_WILL_END_NOTICE = 3 * 86_400;

function subscriptionActions(deps: CheckoutDeps, subscription: Stripe.Subscription): DueAction[] {
  const { store, billing, events } = deps;
  const actions: DueAction[] = [];
  const item = firstItem(subscription);
  const trialEnd = subscription.trial_end;
  if (subscription.status === 'trialing' && trialEnd) {
    const trialStart = subscription.trial_start ?? trialEnd;
    if (!store.trialWillEndSent.has(subscription.id) && trialEnd - trialStart > TRIAL_WILL_END_NOTICE) {
      actions.push({
        at: trialEnd - TRIAL_WILL_END_NOTICE,
        run: () => {
          store.trialWillEndSent.add(subscription.id);
          events.emit('customer.subscription.trial_will_end', subscription);
        },
      });
    }
    actions.push({ at: trialEnd, run: () => endTrial(deps, subscription) });
  }
  if (subscription.status === 'active' || subscription.status === 'past_due') {
    actions.push({
      at: item.current_period_end,
      run: () =>
        subscription.cancel_at_period_end
          ? billing.cancelNow(subscription, 'cancellation_requested')
          : billing.startNextPeriod(subscription, item.current_period_end),
    });
  }
  return actions;
}

function endTrial(deps: CheckoutDeps, subscription: Stripe.Subscription): void {
  const { store, billing, events } = deps;
  const trialEnd = subscription.trial_end ?? deps.clock.now();
  const hasCard = store.cards.has(subscription.customer as string);
  const behavior = subscription.trial_settings?.end_behavior.missing_payment_method ?? 'create_invoice';
  if (subscription.cancel_at_period_end) {
    billing.cancelNow(subscription, 'cancellation_requested');
  } else if (hasCard || behavior === 'create_invoice') {
    billing.startNextPeriod(subscription, trialEnd);
  } else if (behavior === 'cancel') {
    billing.cancelNow(subscription, null);
  } else {
    billing.update(subscription, () => {
      subscription.status = 'paused';
    });
    events.emit('customer.subscription.paused', subscription);
  }
}

function retryAction(deps: CheckoutDeps, invoice: Stripe.Invoice): DueAction | undefined {
  const subscriptionId = invoice.parent?.subscription_details?.subscription;
  const subscription =
    typeof subscriptionId === 'string' ? deps.store.subscriptions.get(subscriptionId) : undefined;
  const at = invoice.next_payment_attempt;
  if (invoice.status !== 'open' || at === null || !subscription || subscription.status === 'canceled') {
    return undefined;
  }
  return {
    at,
    run: () => {
      invoice.next_payment_attempt = null;
      if (deps.billing.attemptPayment(invoice)) {
        deps.billing.update(subscription, () => {
          subscription.status = 'active';
        });
      } else {
        deps.billing.afterFailedAttempt(subscription, invoice);
      }
    },
  };
}

function dueActions(deps: CheckoutDeps): DueAction[] {
  const { store } = deps;
  const actions = [...store.subscriptions.values()].flatMap((subscription) =>
    subscriptionActions(deps, subscription),
  );
  for (const invoice of store.invoices.values()) {
    const action = retryAction(deps, invoice);
    if (action) actions.push(action);
  }
  for (const session of store.checkoutSessions.values()) {
    if (session.status === 'open')
      actions.push({ at: session.expires_at, run: () => expireSession(deps, session) });
  }
  return actions;
}

/**
 * Moves the test clock forward, running every billing step that falls due on the way in time order
 * (trial notices and ends, renewals, payment retries, period-end cancellations, session expiry).
 * The clock stops at each step, so objects and events carry the time the step happened.
 */
export function advanceClock(deps: CheckoutDeps, seconds: number): { now: number; steps: number } {
  const target = deps.clock.now() + seconds;
  let steps = 0;
  for (; steps < 10_000; steps++) {
    const next = dueActions(deps)
      .filter((action) => action.at <= target)
      .sort((a, b) => a.at - b.at)[0];
    if (!next) break;
    if (next.at > deps.clock.now()) deps.clock.advance(next.at - deps.clock.now());
    next.run();
  }
  if (target > deps.clock.now()) deps.clock.advance(target - deps.clock.now());
  return { now: deps.clock.now(), steps };
}
