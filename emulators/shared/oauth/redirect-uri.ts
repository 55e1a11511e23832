/** An absolute http(s) URL without a fragment, as OAuth requires of a redirect URI; undefined otherwise. */
export function parseRedirectUri(value: string | undefined): URL | undefined {
  if (!value || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (value.includes('#')) return undefined;
  return url;
}

/**
 * Whether an authorization request's redirect URI may be used: given, a valid absolute URL, and (when
 * the client registered some) one of its registered URIs, compared exactly as the providers do.
 */
export function checkRedirectUri(
  given: string | undefined,
  registered: readonly string[] | undefined,
): 'ok' | 'missing' | 'invalid' | 'unregistered' {
  if (!given) return 'missing';
  if (!parseRedirectUri(given)) return 'invalid';
  if (registered && !registered.includes(given)) return 'unregistered';
  return 'ok';
}

/**
 * Appends parameters to the redirect URI's query without re-encoding what is already there,
 * so the client gets back exactly the URI it registered plus the response parameters.
 */
export function appendQuery(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) query.append(key, value);
  }
  const hasQuery = redirectUri.includes('?');
  const separator = !hasQuery ? '?' : /[?&]$/.test(redirectUri) ? '' : '&';
  return `${redirectUri}${separator}${query.toString()}`;
}
