const GRAPH_RESOURCE = 'https://graph.microsoft.com/';
const OIDC_SCOPES = new Set(['openid', 'profile', 'email', 'offline_access']);

/**
 * Splits a scope parameter. `https://graph.microsoft.com/Calendars.ReadWrite` and `Calendars.ReadWrite`
 * are the same scope; duplicates (case-insensitive) collapse.
 */
export function parseScopes(raw: string): string[] {
  const seen = new Set<string>();
  const scopes: string[] = [];
  for (const part of raw.split(/\s+/).filter(Boolean)) {
    const scope = part.toLowerCase().startsWith(GRAPH_RESOURCE) ? part.slice(GRAPH_RESOURCE.length) : part;
    const key = scope.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    scopes.push(OIDC_SCOPES.has(key) ? key : scope);
  }
  return scopes;
}

/** A scope of a resource other than Graph (e.g. `api://…/x`), which the emulator cannot grant. */
export function foreignScope(scopes: readonly string[]): string | undefined {
  return scopes.find((scope) => scope.includes('/'));
}

export const hasOfflineAccess = (scopes: readonly string[]) => scopes.includes('offline_access');

/** The scope string of a token response: the granted scopes without offline_access. */
export function formatScope(scopes: readonly string[]): string {
  return scopes.filter((scope) => scope !== 'offline_access').join(' ');
}

/** True when the token's scopes include one of `anyOf`; `.default` stands for every permission. */
export function hasPermission(granted: readonly string[], anyOf: readonly string[]): boolean {
  const lowered = new Set(granted.map((scope) => scope.toLowerCase()));
  if (lowered.has('.default')) return true;
  return anyOf.some((scope) => lowered.has(scope.toLowerCase()));
}

export const PERMISSIONS = {
  readUser: ['User.Read', 'User.ReadWrite', 'User.ReadBasic.All', 'User.Read.All', 'User.ReadWrite.All'],
  readMailboxSettings: ['MailboxSettings.Read', 'MailboxSettings.ReadWrite'],
  writeMailboxSettings: ['MailboxSettings.ReadWrite'],
  readCalendars: [
    'Calendars.Read',
    'Calendars.ReadWrite',
    'Calendars.Read.Shared',
    'Calendars.ReadWrite.Shared',
  ],
  writeCalendars: ['Calendars.ReadWrite', 'Calendars.ReadWrite.Shared'],
} as const;
