import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type ApiDeps, expanded } from './stripe.api.ts';
import { noSuch } from './stripe.errors.ts';
import { paginate } from './stripe.list.ts';
import { listParams, parseParams, priceListParams, retrieveParams } from './stripe.schemas.ts';

const productListParams = z.object({ ...listParams });

/** The catalog, read only: products and prices (looked up by `lookup_keys`). */
export function registerPriceRoutes(scope: FastifyInstance, deps: ApiDeps): void {
  const { store } = deps;

  scope.get('/prices', async (request) => {
    const params = parseParams(priceListParams, request.query);
    const prices = [...store.prices.values()].filter(
      (price) =>
        (params.active === undefined || price.active === params.active) &&
        (params.currency === undefined || price.currency === params.currency.toLowerCase()) &&
        (params.product === undefined || price.product === params.product) &&
        (params.type === undefined || price.type === params.type) &&
        (params.lookup_keys === undefined || params.lookup_keys.includes(price.lookup_key ?? '')) &&
        (params.recurring?.interval === undefined || price.recurring?.interval === params.recurring.interval),
    );
    return expanded(deps, paginate('/v1/prices', prices, params), params.expand);
  });

  scope.get('/prices/:id', async (request) => {
    const { id } = request.params as { id: string };
    const params = parseParams(retrieveParams, request.query);
    const price = store.prices.get(id);
    if (!price) throw noSuch('price', id);
    return expanded(deps, price, params.expand);
  });

  scope.get('/products', async (request) => {
    const params = parseParams(productListParams, request.query);
    return expanded(deps, paginate('/v1/products', [...store.products.values()], params), params.expand);
  });

  scope.get('/products/:id', async (request) => {
    const { id } = request.params as { id: string };
    const params = parseParams(retrieveParams, request.query);
    const product = store.products.get(id);
    if (!product) throw noSuch('product', id);
    return expanded(deps, product, params.expand);
  });
}
