import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Config } from '#server/config.ts';

/** One HTTP request to a provider: its HTTP status, or `error` when no answer came (network, timeout). */
export type ProviderCall = { provider: string; status: string };

/**
 * Watches every HTTP request this process sends, whatever client sends it: Node's fetch (undici: the
 * Todoist and Graph SDKs, openid-client, our token calls) and `node:http` (gaxios under the Google SDK,
 * Stripe). A request to one of `origins` (scheme, host and port, as in the config) is reported with the
 * provider it maps to; any other (the app's own origin, say) is ignored. Nothing of the request but its
 * origin and status is looked at: no path, no header, no body. Returns the function that stops watching.
 */
export function observeProviderCalls(
  origins: ReadonlyMap<string, string>,
  onCall: (call: ProviderCall) => void,
): () => void {
  const providerOf = (origin: string | undefined) => {
    if (!origin) return undefined;
    try {
      return origins.get(new URL(origin).origin);
    } catch {
      return undefined;
    }
  };
  // An answer whose body then fails (aborted mid-body) is one call, counted by its status.
  const answered = new WeakSet<object>();
  const report = (origin: string | undefined, status: string) => {
    const provider = providerOf(origin);
    if (provider) onCall({ provider, status });
  };

  const handlers: [string, (message: unknown) => void][] = [
    [
      'undici:request:headers',
      (message) => {
        const { request, response } = message as {
          request: { origin?: string };
          response: { statusCode: number };
        };
        answered.add(request);
        report(request.origin, String(response.statusCode));
      },
    ],
    [
      'undici:request:error',
      (message) => {
        const { request } = message as { request: { origin?: string } };
        if (!answered.has(request)) report(request.origin, 'error');
      },
    ],
    [
      'http.client.response.finish',
      (message) => {
        const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
        answered.add(request);
        report(httpOrigin(request), String(response.statusCode ?? 0));
      },
    ],
    [
      'http.client.request.error',
      (message) => {
        const { request } = message as { request: ClientRequest };
        if (!answered.has(request)) report(httpOrigin(request), 'error');
      },
    ],
  ];
  for (const [channel, handler] of handlers) subscribe(channel, handler);
  return () => {
    for (const [channel, handler] of handlers) unsubscribe(channel, handler);
  };
}

function httpOrigin(request: ClientRequest): string | undefined {
  const host = request.getHeader('host');
  return typeof host === 'string' ? `${request.protocol}//${host}` : undefined;
}

/** Where each provider is reached (sign-in, tokens, APIs), by origin, from the config in use. */
export function providerOrigins(config: Config): Map<string, string> {
  const urls: [string | undefined, string][] = [
    [config.todoist?.oauthUrl, 'todoist'],
    [config.todoist?.apiUrl, 'todoist'],
    [config.google?.issuer, 'google'],
    [config.googleCalendar?.tokenUrl, 'google'],
    [config.googleCalendar?.revokeUrl, 'google'],
    [config.googleCalendar?.apiUrl, 'google'],
    [config.microsoft?.authorityUrl, 'microsoft'],
    [config.microsoft?.graphUrl, 'microsoft'],
    [config.facebook?.graphUrl, 'facebook'],
    [config.stripe?.apiUrl, 'stripe'],
  ];
  const origins = new Map<string, string>();
  for (const [url, provider] of urls) {
    if (url && URL.canParse(url)) origins.set(new URL(url).origin, provider);
  }
  return origins;
}
