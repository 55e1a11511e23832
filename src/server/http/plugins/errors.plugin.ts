import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { BillingUnavailableError } from '#server/domain/billing/billing-gateway.port.ts';
import { ProviderFailedError } from '#server/domain/integrations/integration-providers.port.ts';
import { NotConnectedError, ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
import {
  DomainError,
  InvalidSignatureError,
  InvalidValueError,
  NotConfiguredError,
  NotFoundError,
  PlanRequiredError,
  StateConflictError,
  TooManyRequestsError,
  UnknownUserError,
} from '#server/domain/shared/domain-errors.ts';
import { AppError, type AppErrorCode } from '#server/errors.ts';
import { SIGN_IN_REQUIRED } from '#shared/api/auth.schema.ts';

export type ErrorBody = {
  error: string;
  message: string;
  issues?: { field: string; message: string }[];
};

type Answer = { status: number; body: ErrorBody };

const answer = (status: number, error: AppErrorCode, message: string): Answer => ({
  status,
  body: { error, message },
});

const connectionName = (kind: 'todoist' | 'calendar') => (kind === 'todoist' ? 'Todoist' : 'your calendar');

/**
 * The one place a domain error becomes HTTP: its status and the message the user reads. Null for an
 * error this table does not know, which is then a fault (500).
 */
export function answerForDomainError(error: DomainError, log: FastifyBaseLogger): Answer | null {
  if (error instanceof InvalidValueError) {
    const { status, body } = answer(400, 'bad_request', error.message);
    return { status, body: { ...body, issues: [{ field: error.field, message: error.message }] } };
  }
  if (error instanceof InvalidSignatureError) return answer(400, 'bad_request', error.message);
  if (error instanceof UnknownUserError) {
    return answer(401, 'unauthorized', `${SIGN_IN_REQUIRED}.`);
  }
  if (error instanceof PlanRequiredError) return answer(403, 'forbidden', error.message);
  if (error instanceof NotFoundError) return answer(404, 'not_found', error.message);
  if (error instanceof StateConflictError) return answer(409, 'conflict', error.message);
  if (error instanceof TooManyRequestsError) return answer(429, 'too_many_requests', error.message);
  if (error instanceof NotConnectedError) {
    return answer(409, 'conflict', `Please connect ${connectionName(error.kind)} first.`);
  }
  if (error instanceof ReconnectRequiredError) {
    return answer(
      409,
      'conflict',
      `Please connect ${connectionName(error.kind)} again: it no longer accepts our access.`,
    );
  }
  if (error instanceof NotConfiguredError) {
    return answer(
      503,
      'not_configured',
      error.feature === 'payments'
        ? 'Payments are not available right now.'
        : 'This integration is not available right now.',
    );
  }
  if (error instanceof ProviderFailedError) {
    log.warn({ err: error.cause }, 'provider request failed');
    const name = connectionName(error.kind);
    return answer(
      502,
      'upstream_error',
      `${name.charAt(0).toUpperCase()}${name.slice(1)} did not answer as expected. Please try again.`,
    );
  }
  if (error instanceof BillingUnavailableError) {
    // The provider's own words stay in the log: they speak of its API, not of anything the user did.
    log.error({ err: error.cause ?? error, call: error.message }, 'payment provider request failed');
    return answer(502, 'upstream_error', 'Payments did not answer as expected. Please try again.');
  }
  return null;
}

/**
 * One error model: validation → 400 naming the field, a domain error → the status and message of
 * `answerForDomainError`, an edge AppError → its status, anything else → 500.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? 'Invalid value',
      }));
      const body: ErrorBody = {
        error: 'bad_request',
        message: issues[0]?.message ?? 'Invalid request',
        issues,
      };
      return reply.status(400).send(body);
    }
    const domain = error instanceof DomainError ? answerForDomainError(error, request.log) : null;
    if (error instanceof TooManyRequestsError) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
    }
    if (domain) return reply.status(domain.status).send(domain.body);
    if (error instanceof AppError) {
      const body: ErrorBody = {
        error: error.code,
        message: error.message,
        ...(error.issues && { issues: error.issues }),
      };
      return reply.status(error.statusCode).send(body);
    }
    if (
      !(error instanceof DomainError) &&
      error.statusCode &&
      error.statusCode >= 400 &&
      error.statusCode < 500
    ) {
      return reply
        .status(error.statusCode)
        .send({ error: error.code ?? 'bad_request', message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send({ error: 'internal', message: 'Something went wrong on our side. Please try again.' });
  });
});
