import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from './stripe.api.ts';
import { noSuch } from './stripe.errors.ts';
import { paginate } from './stripe.list.ts';
import { eventListParams, parseParams } from './stripe.schemas.ts';

/** `type` may end in `*` (`customer.subscription.*`), as on Stripe. */
function typeMatches(pattern: string, type: string): boolean {
  return pattern.endsWith('*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type;
}

export function registerEventRoutes(scope: FastifyInstance, deps: ApiDeps): void {
  scope.get('/events/:id', async (request) => {
    const { id } = request.params as { id: string };
    const event = deps.store.events.find((candidate) => candidate.id === id);
    if (!event) throw noSuch('event', id);
    return event;
  });

  scope.get('/events', async (request) => {
    const params = parseParams(eventListParams, request.query);
    const events = deps.store.events.filter(
      (event) =>
        (params.type === undefined || typeMatches(params.type, event.type)) &&
        (params.types === undefined || params.types.some((type) => typeMatches(type, event.type))),
    );
    return paginate('/v1/events', events, params);
  });
}
