import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { type ApiDeps, eventRequest, expanded } from './stripe.api.ts';
import { planFromPrice } from './stripe.catalog.ts';
import { mergeMetadata } from './stripe.customer-object.ts';
import { invalidRequest, noSuch } from './stripe.errors.ts';
import { paginate } from './stripe.list.ts';
import {
  parseParams,
  retrieveParams,
  subscriptionCancelParams,
  subscriptionListParams,
  subscriptionUpdateParams,
} from './stripe.schemas.ts';
import { firstItem } from './stripe.subscription-object.ts';

const ENDED = ['canceled', 'incomplete_expired'];

export function registerSubscriptionRoutes(scope: FastifyInstance, deps: ApiDeps): void {
  const { store, events, billing, clock } = deps;
  const subscriptionOf = (id: string) => {
    const subscription = store.subscriptions.get(id);
    if (!subscription) throw noSuch('subscription', id);
    return subscription;
  };

  scope.get('/subscriptions/:id', async (request) => {
    const params = parseParams(retrieveParams, request.query);
    return expanded(deps, subscriptionOf((request.params as { id: string }).id), params.expand);
  });

  scope.get('/subscriptions', async (request) => {
    const params = parseParams(subscriptionListParams, request.query);
    const matchesStatus = (status: string) =>
      params.status === undefined
        ? status !== 'canceled'
        : params.status === 'all' ||
          params.status === status ||
          (params.status === 'ended' && ENDED.includes(status));
    const subscriptions = [...store.subscriptions.values()].filter(
      (subscription) =>
        matchesStatus(subscription.status) &&
        (params.customer === undefined || subscription.customer === params.customer) &&
        (params.price === undefined || firstItem(subscription).price.id === params.price),
    );
    return expanded(deps, paginate('/v1/subscriptions', subscriptions, params), params.expand);
  });

  scope.post('/subscriptions/:id', async (request, reply) => {
    const params = parseParams(subscriptionUpdateParams, request.body);
    const subscription = subscriptionOf((request.params as { id: string }).id);
    if (ENDED.includes(subscription.status)) {
      const allowed = new Set(['metadata', 'cancellation_details', 'expand']);
      if (Object.keys(params).some((key) => !allowed.has(key))) {
        throw invalidRequest(
          'A canceled subscription can only update its cancellation_details and metadata.',
        );
      }
    }
    const item = firstItem(subscription);
    const itemUpdate = params.items?.[0];
    if (itemUpdate && itemUpdate.id !== item.id) {
      throw invalidRequest(
        'The sandbox keeps one item per subscription: pass `items[0][id]` of the existing item to change it.',
        'items[0][id]',
      );
    }
    const newPrice = itemUpdate?.price ? store.prices.get(itemUpdate.price) : undefined;
    if (itemUpdate?.price && !newPrice) throw noSuch('price', itemUpdate.price, 'items[0][price]');
    const intervalChanged =
      newPrice !== undefined &&
      (newPrice.recurring?.interval !== item.price.recurring?.interval ||
        newPrice.recurring?.interval_count !== item.price.recurring?.interval_count);

    events.during(eventRequest(request, reply), () => {
      billing.update(subscription, () => {
        if (params.cancel_at_period_end !== undefined) {
          billing.applyCancelAtPeriodEnd(
            subscription,
            params.cancel_at_period_end,
            params.cancellation_details,
          );
        }
        subscription.metadata = mergeMetadata(subscription.metadata, params.metadata);
        if (params.description !== undefined) subscription.description = params.description || null;
        if (newPrice) changePrice(subscription, newPrice, itemUpdate?.quantity);
        else if (itemUpdate?.quantity) item.quantity = itemUpdate.quantity;
        if (typeof params.trial_end === 'number' && subscription.status === 'trialing') {
          subscription.trial_end = params.trial_end;
          item.current_period_end = params.trial_end;
        }
      });
      // A new interval restarts the billing cycle today and bills the new price at once.
      if (intervalChanged && subscription.status !== 'trialing')
        billing.startNextPeriod(subscription, clock.now());
      if (params.trial_end === 'now' && subscription.status === 'trialing') {
        billing.update(subscription, () => {
          subscription.trial_end = clock.now();
        });
        billing.startNextPeriod(subscription, clock.now());
      }
    });
    return expanded(deps, subscription, params.expand);
  });

  scope.delete('/subscriptions/:id', async (request, reply) => {
    const params = parseParams(subscriptionCancelParams, request.query);
    const subscription = subscriptionOf((request.params as { id: string }).id);
    if (ENDED.includes(subscription.status)) {
      throw invalidRequest(`The subscription ${subscription.id} has already been canceled.`);
    }
    events.during(eventRequest(request, reply), () =>
      billing.cancelNow(subscription, 'cancellation_requested', params.cancellation_details),
    );
    return expanded(deps, subscription, params.expand);
  });

  function changePrice(subscription: Stripe.Subscription, price: Stripe.Price, quantity: number | undefined) {
    const item = firstItem(subscription);
    item.price = price;
    item.plan = planFromPrice(price);
    if (quantity) item.quantity = quantity;
    subscription.currency = price.currency;
    if (subscription.cancel_at_period_end) subscription.cancel_at = item.current_period_end;
  }
}
