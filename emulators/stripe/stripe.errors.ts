import type { z } from 'zod';

export type StripeErrorType =
  | 'invalid_request_error'
  | 'card_error'
  | 'api_error'
  | 'idempotency_error'
  | 'authentication_error';

export type StripeErrorDetails = {
  type: StripeErrorType;
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
};

/** Thrown by handlers and turned into Stripe's error body by the API's error handler. */
export class StripeApiError extends Error {
  readonly status: number;
  readonly details: StripeErrorDetails;
  constructor(status: number, details: StripeErrorDetails) {
    super(details.message);
    this.status = status;
    this.details = details;
  }
}

/** `{"error":{"type","code"?,"message","param"?,"doc_url"?}}`, as Stripe answers every failure. */
export function stripeErrorBody(details: StripeErrorDetails) {
  const docUrl = details.code
    ? `https://stripe.com/docs/error-codes/${details.code.replace(/_/g, '-')}`
    : undefined;
  return { error: { ...details, ...(docUrl ? { doc_url: docUrl } : {}) } };
}

/** The body a fault rule sends when it names none. */
export function defaultErrorBody(status: number) {
  if (status === 429) {
    return stripeErrorBody({
      type: 'invalid_request_error',
      code: 'rate_limit',
      message:
        'Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.',
    });
  }
  if (status === 401) return stripeErrorBody(invalidApiKey('').details);
  if (status === 404) return stripeErrorBody({ type: 'invalid_request_error', message: 'Not found.' });
  if (status < 500) return stripeErrorBody({ type: 'invalid_request_error', message: 'Bad request.' });
  return stripeErrorBody({
    type: 'api_error',
    message: 'An unknown error occurred while processing your request.',
  });
}

export function invalidApiKey(key: string | undefined): StripeApiError {
  if (!key) {
    return new StripeApiError(401, {
      type: 'invalid_request_error',
      message:
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    });
  }
  const masked = key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key;
  return new StripeApiError(401, {
    type: 'invalid_request_error',
    message: `Invalid API Key provided: ${masked}`,
  });
}

export function noSuch(kind: string, id: string, param?: string): StripeApiError {
  return new StripeApiError(param ? 400 : 404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    ...(param ? { param } : {}),
  });
}

export function missingParam(param: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    message: `Missing required param: ${param}.`,
    param,
  });
}

export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code } : {}),
    ...(param ? { param } : {}),
  });
}

/** Zod messages of the form `code\0message` carry a Stripe error code (see stripe.schemas.ts). */
export const CODE_SEPARATOR = '\u0000';

export function paramName(path: readonly PropertyKey[]): string {
  const [first, ...rest] = path.map(String);
  return `${first ?? ''}${rest.map((part) => `[${part}]`).join('')}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** The first problem of a failed parse, worded as Stripe words it. */
export function fromZodError(error: z.ZodError, input: unknown): StripeApiError {
  const issue = error.issues[0];
  if (!issue) return invalidRequest('Invalid request.');
  const param = paramName(issue.path);
  if (valueAt(input, issue.path) === undefined) return missingParam(param);
  if (issue.message.includes(CODE_SEPARATOR)) {
    const [code, message] = issue.message.split(CODE_SEPARATOR);
    return invalidRequest(message ?? '', param, code);
  }
  if (issue.code === 'invalid_value') {
    const values = issue.values.map(String);
    const list = values.length > 1 ? `${values.slice(0, -1).join(', ')}, or ${values.at(-1)}` : values[0];
    return invalidRequest(`Invalid ${param}: must be one of ${list}`, param);
  }
  if (issue.code === 'invalid_type' && issue.expected === 'object') {
    return invalidRequest(`Invalid object`, param);
  }
  if (issue.code === 'invalid_type' && issue.expected === 'array') {
    return invalidRequest(`Invalid array`, param);
  }
  return invalidRequest(`Invalid value for ${param}.`, param);
}
