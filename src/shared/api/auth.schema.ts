/** Sign-in and connections as the server answers them and the web app explains them. */

/** What a signed-out request to a signed-in page or call is told (docs/product-rules.md §8). */
export const SIGN_IN_REQUIRED = 'Please log in to access your account';

/** Why a sign-in ended on /login instead of the dashboard (`/login?error=<reason>`); the login page explains each. */
export const SIGN_IN_ERROR_REASONS = ['unavailable', 'expired', 'cancelled', 'failed', 'too-many'] as const;
export type SignInErrorReason = (typeof SIGN_IN_ERROR_REASONS)[number];

export const IDENTITY_PROVIDERS = ['google', 'facebook'] as const;
export type IdentityProviderKey = (typeof IDENTITY_PROVIDERS)[number];

/** Where sign-in with each provider starts; the provider sends the browser back to `<path>/callback`. */
export const SIGN_IN_PATHS: Record<IdentityProviderKey, `/auth/${IdentityProviderKey}`> = {
  google: '/auth/google',
  facebook: '/auth/facebook',
};

/**
 * Where connecting each integration starts (a full navigation through the provider's consent page);
 * the provider sends the browser back to `<path>/callback`, and `<path>/revoke` removes the connection.
 * Google Calendar lives beside Google sign-in (docs/product-rules.md §7).
 */
export const CONNECT_PATHS = {
  todoist: '/auth/todoist',
  google: '/auth/google/calendar',
  microsoft: '/auth/microsoft',
} as const;
export type IntegrationKey = keyof typeof CONNECT_PATHS;
/**
 * `<connect path>?another=1`: connect a calendar account beside the one(s) connected (decision 028); the
 * provider asks which account instead of offering the signed-in address first.
 */
export const CONNECT_ANOTHER_QUERY = 'another';
/** Connecting a calendar account of `provider` beside the connected ones, or one of those again. */
export const connectAnotherPath = (provider: 'google' | 'microsoft') =>
  `${CONNECT_PATHS[provider]}?${CONNECT_ANOTHER_QUERY}=1`;

/** `/dashboard?connect_error=too-many&provider=<key>`: too many connect attempts from the network this minute. */
export const CONNECT_TOO_MANY = 'too-many';
export const INTEGRATION_KEYS = Object.keys(CONNECT_PATHS) as IntegrationKey[];

/** The integrations as the user view names them (`todoSettings.provider`, `calendarSettings.provider`). */
export const INTEGRATION_KEY_OF = {
  Todoist: 'todoist',
  'Google Calendar': 'google',
  Microsoft: 'microsoft',
} as const satisfies Record<string, IntegrationKey>;
export type IntegrationName = keyof typeof INTEGRATION_KEY_OF;
