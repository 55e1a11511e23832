import type { FastifyInstance, FastifyRequest } from 'fastify';
import { StripeApiError } from './stripe.errors.ts';

type SavedResult = {
  endpoint: string;
  params: string;
  status?: number;
  body?: string;
  requestId?: string;
};

/**
 * `Idempotency-Key` on POST: the same key with the same parameters replays the first response
 * (`Idempotent-Replayed: true`); with other parameters or another endpoint it is a 400
 * `idempotency_error`. Like Stripe, only results of requests that ran (2xx, 402) are kept.
 */
export class IdempotencyKeys {
  readonly #results = new Map<string, SavedResult>();
  /** The request that first used each key, whose response gets saved. */
  readonly #owners = new WeakMap<FastifyRequest, string>();

  install(scope: FastifyInstance): void {
    scope.addHook('preHandler', async (request, reply) => {
      const key = request.headers['idempotency-key'];
      if (request.method !== 'POST' || typeof key !== 'string' || key === '') return;
      if (key.length > 255) {
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          message: 'Idempotency keys can be at most 255 characters long.',
        });
      }
      const endpoint = `POST ${request.url.split('?')[0]}`;
      const params = JSON.stringify(request.body ?? {});
      const saved = this.#results.get(key);
      if (!saved) {
        this.#results.set(key, { endpoint, params });
        this.#owners.set(request, key);
        return;
      }
      if (saved.endpoint !== endpoint) {
        throw idempotencyError(
          `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${saved.endpoint}' vs '${endpoint}'). Try using a key other than '${key}' if you meant to execute a different request.`,
        );
      }
      if (saved.params !== params) {
        throw idempotencyError(
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        );
      }
      if (saved.status === undefined) {
        throw new StripeApiError(409, {
          type: 'idempotency_error',
          code: 'idempotency_key_in_use',
          message:
            'There is currently another in-progress request using this idempotent key (that probably means you submitted twice, and the other request is still going through): ' +
            `${key}. Please try again later.`,
        });
      }
      return reply
        .code(saved.status)
        .header('idempotent-replayed', 'true')
        .header('original-request', saved.requestId ?? '')
        .type('application/json')
        .send(saved.body);
    });

    scope.addHook('onSend', async (request, reply, payload) => {
      const key = this.#owners.get(request);
      const saved = key === undefined ? undefined : this.#results.get(key);
      if (key === undefined || !saved || saved.status !== undefined) return payload;
      if (reply.statusCode < 400 || reply.statusCode === 402) {
        saved.status = reply.statusCode;
        saved.body = typeof payload === 'string' ? payload : JSON.stringify(payload);
        saved.requestId = String(reply.getHeader('request-id') ?? '');
      } else {
        this.#results.delete(key);
      }
      return payload;
    });
  }

  get size(): number {
    return this.#results.size;
  }

  reset(): void {
    this.#results.clear();
  }
}

function idempotencyError(message: string): StripeApiError {
  return new StripeApiError(400, { type: 'idempotency_error', message });
}
