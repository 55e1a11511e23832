import type { FastifyInstance } from 'fastify';
import { type ApiDeps, eventRequest, expanded } from './stripe.api.ts';
import { previousAttributes } from './stripe.billing.ts';
import { createCustomer } from './stripe.checkout-flow.ts';
import { emptyToNull, mergeMetadata } from './stripe.customer-object.ts';
import { noSuch } from './stripe.errors.ts';
import { paginate } from './stripe.list.ts';
import {
  customerCreateParams,
  customerListParams,
  customerUpdateParams,
  parseParams,
  retrieveParams,
} from './stripe.schemas.ts';

export function registerCustomerRoutes(scope: FastifyInstance, deps: ApiDeps): void {
  const { store, events, billing } = deps;
  const customerOf = (id: string) => {
    const customer = store.customers.get(id);
    if (!customer) throw noSuch('customer', id);
    return customer;
  };
  const deleted = (id: string) => ({ id, object: 'customer', deleted: true });

  scope.post('/customers', async (request, reply) => {
    const params = parseParams(customerCreateParams, request.body);
    const customer = events.during(eventRequest(request, reply), () =>
      createCustomer(deps, {
        email: params.email || null,
        name: params.name || null,
        description: params.description || null,
        phone: params.phone || null,
        metadata: mergeMetadata({}, params.metadata),
        preferredLocales: params.preferred_locales,
      }),
    );
    return expanded(deps, customer, params.expand);
  });

  scope.get('/customers/:id', async (request) => {
    const { id } = request.params as { id: string };
    const params = parseParams(retrieveParams, request.query);
    if (store.deletedCustomers.has(id)) return deleted(id);
    return expanded(deps, customerOf(id), params.expand);
  });

  scope.post('/customers/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const params = parseParams(customerUpdateParams, request.body);
    const customer = customerOf(id);
    const before = structuredClone(customer);
    customer.email = emptyToNull(params.email, customer.email);
    customer.name = emptyToNull(params.name, customer.name ?? null);
    customer.description = emptyToNull(params.description, customer.description);
    customer.phone = emptyToNull(params.phone, customer.phone ?? null);
    customer.metadata = mergeMetadata(customer.metadata, params.metadata);
    if (params.preferred_locales) customer.preferred_locales = params.preferred_locales;
    const previous = previousAttributes(before, customer);
    if (Object.keys(previous).length > 0) {
      events.during(eventRequest(request, reply), () => events.emit('customer.updated', customer, previous));
    }
    return expanded(deps, customer, params.expand);
  });

  scope.get('/customers', async (request) => {
    const params = parseParams(customerListParams, request.query);
    const customers = [...store.customers.values()].filter(
      (customer) => params.email === undefined || customer.email === params.email,
    );
    return expanded(deps, paginate('/v1/customers', customers, params), params.expand);
  });

  /** Deleting a customer cancels its subscriptions at once, as Stripe does. */
  scope.delete('/customers/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const customer = customerOf(id);
    events.during(eventRequest(request, reply), () => {
      for (const subscription of store.subscriptionsOf(id)) {
        if (subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired') {
          billing.cancelNow(subscription, 'cancellation_requested');
        }
      }
      store.customers.delete(id);
      store.deletedCustomers.add(id);
      events.emit('customer.deleted', customer);
    });
    return deleted(id);
  });
}
