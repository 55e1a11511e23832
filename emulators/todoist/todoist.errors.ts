import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** The JSON error body every Todoist API v1 endpoint answers with (also a failed Sync command's status). */
export type TodoistErrorBody = {
  error: string;
  error_code: number;
  error_extra: Record<string, unknown>;
  error_tag: string;
  http_code: number;
};

export class TodoistError extends Error {
  readonly body: TodoistErrorBody;

  constructor(
    httpCode: number,
    tag: string,
    code: number,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.body = {
      error: message,
      error_code: code,
      error_extra: { ...extra, event_id: randomBytes(16).toString('hex') },
      error_tag: tag,
      http_code: httpCode,
    };
  }
}

export const errors = {
  invalidToken: () =>
    new TodoistError(401, 'AUTH_INVALID_TOKEN', 401, 'Invalid token', { access_type: 'access_token' }),
  insufficientScope: (needed: string) =>
    new TodoistError(403, 'AUTH_INSUFFICIENT_TOKEN_SCOPE', 403, 'Insufficient token scope', {
      explanation: `This request needs the ${needed} scope`,
    }),
  taskNotFound: () => new TodoistError(404, 'NOT_FOUND', 478, 'Task not found'),
  labelNotFound: () => new TodoistError(404, 'NOT_FOUND', 478, 'Label not found'),
  projectNotFound: () => new TodoistError(404, 'NOT_FOUND', 478, 'Project not found'),
  /**
   * The Inbox cannot be archived, deleted or moved. Todoist's exact tag and code for this are not
   * documented; the emulator answers a 400 INVALID_ARGUMENT_VALUE naming the argument.
   */
  inboxProtected: (argument: string, action: 'archived' | 'deleted' | 'moved') =>
    new TodoistError(400, 'INVALID_ARGUMENT_VALUE', 20, 'Invalid argument value', {
      argument,
      explanation: `The Inbox project cannot be ${action}`,
    }),
  missing: (argument: string) =>
    new TodoistError(400, 'ARGUMENT_MISSING', 19, 'Required argument is missing', { argument }),
  invalid: (argument: string, explanation?: string) =>
    new TodoistError(400, 'INVALID_ARGUMENT_VALUE', 20, 'Invalid argument value', {
      argument,
      ...(explanation === undefined ? {} : { explanation }),
    }),
  limitsReached: (retryAfterSeconds: number) =>
    new TodoistError(429, 'LIMITS_REACHED', 35, 'Too many requests. Limits reached. Try again later', {
      retry_after: retryAfterSeconds,
    }),
  tooManyCommands: () =>
    new TodoistError(400, 'MAX_COMMANDS_EXCEEDED', 36, 'Maximum number of commands exceeded', {
      max_count: 100,
    }),
};

/** Default bodies for injected faults (`installFaults`). */
export function faultErrorBody(status: number): TodoistErrorBody {
  if (status === 429) {
    return new TodoistError(429, 'LIMITS_REACHED', 35, 'Too many requests. Limits reached. Try again later', {
      retry_after: 1,
    }).body;
  }
  if (status === 401) return errors.invalidToken().body;
  if (status === 403) return new TodoistError(403, 'FORBIDDEN', 403, 'Forbidden').body;
  if (status === 404) return new TodoistError(404, 'NOT_FOUND', 478, 'Not found').body;
  if (status === 503) return new TodoistError(503, 'SERVICE_UNAVAILABLE', 503, 'Service unavailable').body;
  if (status >= 500)
    return new TodoistError(status, 'INTERNAL_SERVER_ERROR', 500, 'Internal server error').body;
  return new TodoistError(status, 'BAD_REQUEST', 400, 'Bad request').body;
}

export function sendError(reply: FastifyReply, error: TodoistError) {
  return reply.code(error.body.http_code).send(error.body);
}
