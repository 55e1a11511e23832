import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Graph's error body: `{"error":{"code","message","innerError":{"date","request-id","client-request-id"}}}`.
 * The request id is Fastify's request id (a UUID, see the factory), also sent as the `request-id` header.
 */
export function graphErrorBody(code: string, message: string, request?: FastifyRequest) {
  const requestId = request ? String(request.id) : randomUUID();
  const clientRequestId = request?.headers['client-request-id'];
  return {
    error: {
      code,
      message,
      innerError: {
        date: new Date().toISOString().slice(0, 19),
        'request-id': requestId,
        'client-request-id': typeof clientRequestId === 'string' ? clientRequestId : requestId,
      },
    },
  };
}

export class GraphError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export const notFound = (message = 'The specified object was not found in the store.') =>
  new GraphError(404, 'ErrorItemNotFound', message);

export const badRequest = (code: string, message: string) => new GraphError(400, code, message);

/**
 * Outlook's refusal of a request the caller may not make: a token without the permission, or a write
 * to a calendar shared with the user to read only (docs/provider-facts.md §9).
 */
export const accessDenied = () =>
  new GraphError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');

export function sendGraphError(reply: FastifyReply, error: GraphError) {
  return reply
    .code(error.status)
    .headers(error.headers)
    .send(graphErrorBody(error.code, error.message, reply.request));
}

const STATUS_CODES: Record<number, [string, string]> = {
  400: ['BadRequest', 'The request is malformed or incorrect.'],
  401: ['InvalidAuthenticationToken', 'Access token validation failure.'],
  403: ['ErrorAccessDenied', 'Access is denied. Check credentials and try again.'],
  404: ['ErrorItemNotFound', 'The specified object was not found in the store.'],
  409: ['ErrorIrresolvableConflict', 'The request conflicts with the current state of the item.'],
  429: ['TooManyRequests', 'Please retry again later.'],
  500: ['InternalServerError', 'An internal server error occurred. The operation failed.'],
  502: ['BadGateway', 'The service is unreachable.'],
  503: ['ServiceUnavailable', 'The service is temporarily unavailable. Please retry later.'],
  504: ['GatewayTimeout', 'The server did not respond in time.'],
};

/** The body a fault rule sends when it gives none. */
export function faultErrorBody(status: number) {
  const [code, message] = STATUS_CODES[status] ?? ['UnknownError', 'An unexpected error occurred.'];
  return graphErrorBody(code, message);
}
