import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '#server/errors.ts';

export type ErrorBody = {
  error: string;
  message: string;
  issues?: { field: string; message: string }[];
};

/** One error model: validation → 400 naming the field, AppError → its status, anything else → 500. */
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
    if (error instanceof AppError) {
      const body: ErrorBody = {
        error: error.code,
        message: error.message,
        ...(error.issues && { issues: error.issues }),
      };
      return reply.status(error.statusCode).send(body);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
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
