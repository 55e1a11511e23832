import type { GoogleUser } from './google-identity.store.ts';

// Google accepts the short scope names and reports them back in their long form.
const LONG_SCOPE_NAMES: Record<string, string> = {
  email: 'https://www.googleapis.com/auth/userinfo.email',
  profile: 'https://www.googleapis.com/auth/userinfo.profile',
};
const SHORT_SCOPE_NAMES = new Map(Object.entries(LONG_SCOPE_NAMES).map(([short, long]) => [long, short]));

/** Splits a scope parameter into distinct scopes, using the short names for email and profile. */
export function parseScopes(scope: string): string[] {
  const scopes = scope.split(/\s+/).filter(Boolean);
  return [...new Set(scopes.map((s) => SHORT_SCOPE_NAMES.get(s) ?? s))];
}

/** The `scope` value of token responses and redirects: what was granted, long names as Google gives them. */
export function formatGrantedScope(scopes: readonly string[]): string {
  return scopes.map((s) => LONG_SCOPE_NAMES[s] ?? s).join(' ');
}

/** The profile claims the granted scopes allow, shared by the ID token and the userinfo endpoint. */
export function profileClaims(user: GoogleUser, scopes: readonly string[]): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  if (scopes.includes('email')) {
    claims.email = user.email;
    claims.email_verified = true;
  }
  if (scopes.includes('profile')) {
    const [givenName = '', ...rest] = user.name.split(/\s+/);
    claims.name = user.name;
    claims.given_name = givenName;
    if (rest.length > 0) claims.family_name = rest.join(' ');
  }
  return claims;
}
