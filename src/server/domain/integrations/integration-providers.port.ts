import type { TodoistLabel } from '#shared/api/current-user.schema.ts';
import type { TodoistProject } from '#shared/settings/project-scope.ts';
import { DomainError, NamedError } from '../shared/domain-errors.ts';

/**
 * Ports of the connectable providers (Todoist; Google Calendar or Microsoft 365 as the calendar).
 * Adapters in `providers/` implement them with the official SDKs; real or emulated, by config.
 */

export type IntegrationProvider = 'todoist' | 'google' | 'microsoft';
export type IntegrationKind = 'todoist' | 'calendar';

export const KIND_OF: Record<IntegrationProvider, IntegrationKind> = {
  todoist: 'todoist',
  google: 'calendar',
  microsoft: 'calendar',
};

/** The one-time values of a connect attempt, kept in a signed cookie between redirect and callback. */
export type ConnectFlow = {
  provider: IntegrationProvider;
  state: string;
  /** PKCE verifier; sent only to providers that support PKCE (Google, Microsoft). */
  codeVerifier: string;
  /** Who started the flow: the callback must come back to the same signed-in user. */
  userId: string;
  /** The signed-in user's e-mail, sent as `login_hint` so the provider offers that account first. */
  loginHint?: string;
  /** The user adds another calendar account: the provider asks which account, none offered first. */
  anotherAccount?: boolean;
};

export type ProviderTokens = {
  accessToken: string;
  /** Null when the provider gave none (Todoist apps without refresh tokens). */
  refreshToken: string | null;
  /** Null when the access token does not expire. */
  expiresAt: Date | null;
};

/** The OAuth side of a provider: consent, code exchange, refresh and revocation. */
export type OAuthConnector = {
  authorizationUrl(flow: ConnectFlow, redirectUri: string): Promise<URL>;
  /** Verifies the callback against the flow and exchanges its code; ConnectCancelledError on a refusal. */
  exchange(callbackUrl: URL, flow: ConnectFlow, redirectUri: string): Promise<ProviderTokens>;
  /** New tokens; GrantRevokedError when the provider no longer honours the refresh token. */
  refresh(refreshToken: string): Promise<ProviderTokens>;
  /** Ends the grant at the provider. A provider without per-app revocation (Microsoft) does nothing. */
  revoke(tokens: { accessToken: string; refreshToken: string | null }): Promise<void>;
};

export type { TodoistLabel, TodoistProject };

export type TodoistProfile = {
  userId: string;
  /** Todoist's `premium_status`: not_premium, current_personal_plan, legacy_personal_plan, teams_business_member. */
  premiumStatus: string;
  timezone: string | null;
};

export type TodoistGateway = OAuthConnector & {
  profile(accessToken: string): Promise<TodoistProfile>;
  labels(accessToken: string): Promise<TodoistLabel[]>;
  /** The account's active projects (archived ones are not listed). */
  projects(accessToken: string): Promise<TodoistProject[]>;
  /** LabelExistsError when Todoist already has a label of that name. */
  addLabel(accessToken: string, label: { name: string; color: string }): Promise<void>;
  updateLabelColor(accessToken: string, labelId: string, color: string): Promise<void>;
  deleteLabel(accessToken: string, labelId: string): Promise<void>;
};

/**
 * A calendar of the account; `primary`: the account's main one (Google primary, Microsoft default);
 * `readOnly`: one the account can only read (Google `accessRole` reader or freeBusyReader, Graph
 * `canEdit` false): Timeboxer's events cannot go there, its busy times still count.
 */
export type CalendarEntry = {
  id: string;
  name: string;
  color: string | null;
  timeZone: string | null;
  primary?: boolean;
  readOnly?: boolean;
};
export type CalendarCategory = { id: string; displayName: string; color: string };

export type CalendarProfile = {
  /** The account at the provider (Google: the primary calendar's id; Microsoft: the user id). */
  accountId: string | null;
  /** The account's address (Google: its primary calendar's id; Microsoft: `mail`, else `userPrincipalName`). */
  email: string | null;
  calendars: CalendarEntry[];
  /** Microsoft's master categories; Google has none. */
  categories: CalendarCategory[];
};

export type CalendarGateway = OAuthConnector & {
  profile(accessToken: string): Promise<CalendarProfile>;
};

/** The user refused consent at the provider (or closed it). */
export class ConnectCancelledError extends NamedError {}

/** The provider answered 401 to an access token: expired early, or revoked. */
export class ProviderUnauthorizedError extends NamedError {}

/** The provider refused a refresh token (invalid_grant): only a new consent helps. */
export class GrantRevokedError extends NamedError {}

/** Todoist already has a personal label with that name. */
export class LabelExistsError extends NamedError {}

/**
 * Any other failure talking to a provider. Adapters throw this instead of the SDK's own errors, whose
 * properties can carry request headers and bodies (tokens, client secrets) into the logs.
 */
export class ProviderRequestError extends NamedError {
  readonly status: number | undefined;
  /** The provider's short reason code (Google's `reason`, Graph's `code`), never its message. */
  readonly reason: string | undefined;

  constructor(message: string, status?: number, reason?: string) {
    super(status ? `${message} (HTTP ${status})` : message);
    this.status = status;
    this.reason = reason?.slice(0, 60);
  }
}

/** A provider failed while serving the user's request for this connection (wraps ProviderRequestError). */
export class ProviderFailedError extends DomainError {
  readonly kind: IntegrationKind;

  constructor(kind: IntegrationKind, options: { cause: unknown }) {
    super(`The ${kind} provider did not answer as expected`, options);
    this.kind = kind;
  }
}

/** Runs provider work for the user, turning a provider's failure into ProviderFailedError of this kind. */
export async function failingAs<T>(kind: IntegrationKind, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderRequestError) throw new ProviderFailedError(kind, { cause: error });
    throw error;
  }
}
