import { randomUUID } from 'node:crypto';
import { OAuthError } from '../shared/oauth/oauth-error.ts';

/** An error of the Microsoft identity platform: an OAuth `error` plus an `AADSTSnnnn` code. */
export class AadError extends OAuthError {
  readonly aadCode: number;

  constructor(status: number, error: string, aadCode: number, description: string) {
    super(status, error, description);
    this.aadCode = aadCode;
  }
}

/** `error_description` as Entra writes it: `AADSTS70008: … Trace ID: … Correlation ID: … Timestamp: …`. */
export function aadDescription(error: AadError, traceId: string, correlationId: string, timestamp: string) {
  return `AADSTS${error.aadCode}: ${error.message} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`;
}

/** The token endpoint's JSON error body. */
export function aadErrorBody(error: AadError) {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  const timestamp = `${new Date().toISOString().slice(0, 19).replace('T', ' ')}Z`;
  return {
    error: error.error,
    error_description: aadDescription(error, traceId, correlationId, timestamp),
    error_codes: [error.aadCode],
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
    error_uri: `https://login.microsoftonline.com/error?code=${error.aadCode}`,
  };
}

export const missingParameter = (name: string) =>
  new AadError(
    400,
    'invalid_request',
    900144,
    `The request body must contain the following parameter: '${name}'.`,
  );
