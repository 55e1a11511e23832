import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../shared/params.ts';
import type { CheckoutDeps } from './stripe.checkout-flow.ts';
import { invalidApiKey, invalidRequest, StripeApiError, stripeErrorBody } from './stripe.errors.ts';
import type { IdempotencyKeys } from './stripe.idempotency.ts';
import { stripeId } from './stripe.ids.ts';
import { expand } from './stripe.list.ts';
import type { EventRequest } from './stripe.webhooks.ts';

export type ApiDeps = CheckoutDeps & {
  getOrigin: () => string;
  apiKeys: ReadonlySet<string>;
  apiVersion: string;
};

/** The key of `Authorization: Bearer sk_…`, or of Basic auth with the key as user name (curl -u). */
function apiKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const bearer = bearerToken(header);
  if (bearer) return bearer;
  const basic = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1];
  return basic ? Buffer.from(basic, 'base64').toString('utf8').split(':')[0] : undefined;
}

/** Hooks every `/v1` route shares: request ids, API key check, idempotency, Stripe's error bodies. */
export function installApiConventions(
  scope: FastifyInstance,
  deps: ApiDeps,
  idempotency: IdempotencyKeys,
): void {
  scope.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', stripeId('request'));
    const version = request.headers['stripe-version'];
    reply.header('stripe-version', typeof version === 'string' ? version : deps.apiVersion);
    const key = request.headers['idempotency-key'];
    if (request.method === 'POST' && typeof key === 'string') reply.header('idempotency-key', key);
    const apiKey = apiKeyOf(request);
    if (!apiKey || !deps.apiKeys.has(apiKey)) throw invalidApiKey(apiKey);
  });
  idempotency.install(scope);

  scope.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof StripeApiError) return reply.code(error.status).send(stripeErrorBody(error.details));
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(400).send(stripeErrorBody(invalidRequest((error as Error).message).details));
    }
    reply.log.error(error);
    return reply.code(500).send(
      stripeErrorBody({
        type: 'api_error',
        message: 'An unknown error occurred while processing your request.',
      }),
    );
  });

  scope.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    return reply.code(404).send(
      stripeErrorBody({
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${request.method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      }),
    );
  });
}

/** Events caused by this request carry its id and idempotency key, as Stripe's `event.request` does. */
export function eventRequest(request: FastifyRequest, reply: FastifyReply): EventRequest {
  const key = request.headers['idempotency-key'];
  return {
    id: String(reply.getHeader('request-id') ?? '') || null,
    idempotency_key: typeof key === 'string' ? key : null,
  };
}

/** Request parameters: the form body of a POST, the query string of a GET or DELETE. */
export function paramsOf(request: FastifyRequest): unknown {
  return request.method === 'POST' ? (request.body ?? {}) : (request.query ?? {});
}

export function expanded<T>(deps: ApiDeps, value: T, paths: readonly string[] | undefined): T {
  return expand(value, paths, (id) => deps.store.find(id));
}
