import {
  AuthenticationHandler,
  Client,
  GraphError,
  HTTPMessageHandler,
  TelemetryHandler,
} from '@microsoft/microsoft-graph-client';
import type { MicrosoftConfig } from '#server/config.ts';
import {
  ProviderRequestError,
  ProviderUnauthorizedError,
} from '#server/domain/integrations/integration-providers.port.ts';
import { RateLimitedError } from '#server/sync/rate-limited-error.ts';

/**
 * The Graph client for sync work. Unlike the default chain it has no RetryHandler: that one sleeps
 * through 429/503 inside the call (up to minutes, honouring Retry-After); a sync job should rather
 * give up the slot and be rescheduled, so throttling surfaces as RateLimitedError.
 */
export function syncGraphClient(config: MicrosoftConfig, accessToken: string): Client {
  const authentication = new AuthenticationHandler({ getAccessToken: async () => accessToken });
  return Client.initWithMiddleware({
    middleware: [authentication, new TelemetryHandler(), new HTTPMessageHandler()],
    baseUrl: config.graphUrl,
    // The client attaches the token only to Graph's own hosts and these (the emulator's).
    customHosts: new Set([new URL(config.graphUrl).hostname]),
  });
}

/** The HTTP status of a Graph failure; undefined for network errors and anything else. */
export function graphStatus(error: unknown): number | undefined {
  return error instanceof GraphError && error.statusCode > 0 ? error.statusCode : undefined;
}

export function graphCode(error: unknown): string {
  return error instanceof GraphError && typeof error.code === 'string' ? error.code : '';
}

/** `Retry-After` in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(error: unknown, now: number): number | null {
  const value = error instanceof GraphError ? error.headers?.get('retry-after') : null;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Our error for any other failure. Never rethrow the SDK's: its errors can carry request details. 401
 * means the token is no good; 429, and 503 with Retry-After, mean slow down.
 */
export function graphFailure(error: unknown, what: string, now: Date): Error {
  if (
    error instanceof ProviderRequestError ||
    error instanceof ProviderUnauthorizedError ||
    error instanceof RateLimitedError
  ) {
    return error;
  }
  const status = graphStatus(error);
  if (status === 401) return new ProviderUnauthorizedError('Microsoft refused the access token');
  const retryAfter = retryAfterMs(error, now.getTime());
  if (status === 429 || (status === 503 && retryAfter !== null)) {
    return new RateLimitedError(`Microsoft asks us to slow down (${what})`, retryAfter);
  }
  const code = graphCode(error).slice(0, 60);
  if (error instanceof GraphError && status === undefined) {
    // No answer: a network failure or our timeout. The name says which; the message could say more.
    return new ProviderRequestError(`Microsoft did not answer (${what}) [${code || 'network'}]`);
  }
  return new ProviderRequestError(
    `Microsoft could not ${what}${code ? ` [${code}]` : ''}`,
    status,
    code || undefined,
  );
}

/**
 * Writes in the user's zone, and once more in UTC when Graph does not know that zone (Graph takes
 * IANA names, but not every one). The first attempt failed with a 400, so nothing was created.
 */
export async function withZoneFallback<T>(send: (zone?: string) => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (graphStatus(error) === 400 && /timezone/i.test(graphCode(error))) return send('UTC');
    throw error;
  }
}

/**
 * Graph's refusal of an event write where the account can only read the calendar (shared with it to read
 * only, or its access dropped since: docs/provider-facts.md §9): 403 with `ErrorAccessDenied`. A 403 with
 * any other code is not this.
 */
export function writeDenied(error: unknown): boolean {
  return graphStatus(error) === 403 && graphCode(error).toLowerCase() === 'erroraccessdenied';
}

/** Graph wraps Outlook's refusal of a subscription: `ExtensionError` ... `Status Code: NotFound`. */
export function calendarMissing(error: unknown): boolean {
  if (graphStatus(error) === 404) return true;
  const message = error instanceof Error ? error.message : '';
  return graphCode(error) === 'ExtensionError' && /Status Code: NotFound/i.test(message);
}
