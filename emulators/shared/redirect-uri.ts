/** An absolute http(s) URL without a fragment, as OAuth requires of a redirect URI; undefined otherwise. */
export function parseRedirectUri(value: string | undefined): URL | undefined {
  if (!value || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (value.includes('#')) return undefined;
  return url;
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
