/** Google's JSON error shape: `{ error: { code, message, errors: [{ domain, reason, message, ... }], status } }`. */
export type GoogleErrorItem = {
  domain: string;
  reason: string;
  message: string;
  locationType?: string;
  location?: string;
};

// google.rpc codes Google puts in `status`; a 410 has none (Calendar's own fullSyncRequired body omits it).
const RPC_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  412: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export class GoogleApiError extends Error {
  readonly status: number;
  readonly items: GoogleErrorItem[];
  readonly headers: Record<string, string>;

  constructor(status: number, item: GoogleErrorItem, message = item.message, headers = {}) {
    super(message);
    this.status = status;
    this.items = [item];
    this.headers = headers;
  }

  body() {
    return googleErrorBody(this.status, this.message, this.items);
  }
}

export function googleErrorBody(code: number, message: string, errors: GoogleErrorItem[]) {
  const status = RPC_STATUS[code];
  return { error: { code, message, errors, ...(status ? { status } : {}) } };
}

const global = (reason: string, message: string, extra: Partial<GoogleErrorItem> = {}): GoogleErrorItem => ({
  domain: 'global',
  reason,
  message,
  ...extra,
});

export const errors = {
  unauthenticated: () =>
    new GoogleApiError(
      401,
      global('authError', 'Invalid Credentials', { locationType: 'header', location: 'Authorization' }),
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
    ),
  insufficientScopes: () =>
    new GoogleApiError(
      403,
      global('insufficientPermissions', 'Insufficient Permission'),
      'Request had insufficient authentication scopes.',
      {
        'www-authenticate':
          'Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="https://www.googleapis.com/auth/calendar"',
      },
    ),
  notFound: () => new GoogleApiError(404, global('notFound', 'Not Found')),
  badRequest: (message = 'Bad Request') => new GoogleApiError(400, global('badRequest', message)),
  invalid: (message = 'Invalid Value', location?: string) =>
    new GoogleApiError(
      400,
      global('invalid', message, location ? { locationType: 'parameter', location } : {}),
    ),
  required: (message: string, location?: string) =>
    new GoogleApiError(
      400,
      global('required', message, location ? { locationType: 'parameter', location } : {}),
    ),
  timeRangeEmpty: () =>
    new GoogleApiError(400, global('timeRangeEmpty', 'The specified time range is empty.')),
  // Reason and message as Google answers events.move for one instance of a recurring event; the
  // domain is not documented, `calendar` as for Calendar's other own reasons.
  cannotChangeOrganizerOfInstance: () =>
    new GoogleApiError(400, {
      domain: 'calendar',
      reason: 'cannotChangeOrganizerOfInstance',
      message: 'Cannot change the organizer of an instance.',
    }),
  // calendars.delete on a primary calendar (calendars.clear empties it instead). Google documents neither
  // status nor message; 400 with this reason, the domain as for cannotChangeOrganizerOfInstance.
  cannotDeletePrimaryCalendar: () =>
    new GoogleApiError(400, {
      domain: 'calendar',
      reason: 'cannotDeletePrimaryCalendar',
      message: 'Cannot delete primary calendar.',
    }),
  /** A write where the account's access falls short (a calendar shared with it to read only). */
  requiredAccessLevel: (level: 'writer' | 'owner') =>
    new GoogleApiError(403, {
      domain: 'calendar',
      reason: 'requiredAccessLevel',
      message: `You need to have ${level} access to this calendar.`,
    }),
  duplicate: () => new GoogleApiError(409, global('duplicate', 'The requested identifier already exists.')),
  deleted: () => new GoogleApiError(410, global('deleted', 'Resource has been deleted')),
  fullSyncRequired: () =>
    new GoogleApiError(410, {
      domain: 'calendar',
      reason: 'fullSyncRequired',
      message: 'Sync token is no longer valid, a full sync is required.',
      locationType: 'parameter',
      location: 'syncToken',
    }),
  conditionNotMet: () =>
    new GoogleApiError(
      412,
      global('conditionNotMet', 'Precondition Failed', { locationType: 'header', location: 'If-Match' }),
    ),
  channelIdNotUnique: (id: string) =>
    new GoogleApiError(400, global('channelIdNotUnique', `Channel id ${id} not unique`)),
  channelNotFound: (id: string) =>
    new GoogleApiError(404, global('notFound', `Channel '${id}' not found for project`)),
};

/**
 * Google's documented 403 and 429 errors (developers.google.com/workspace/calendar/api/guides/errors):
 * the usage limits, to be retried with back-off, and the refusals of one write.
 */
const DOCUMENTED_REFUSALS: Record<string, GoogleErrorItem> = {
  rateLimitExceeded: { domain: 'usageLimits', reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' },
  userRateLimitExceeded: {
    domain: 'usageLimits',
    reason: 'userRateLimitExceeded',
    message: 'User Rate Limit Exceeded',
  },
  quotaExceeded: {
    domain: 'usageLimits',
    reason: 'quotaExceeded',
    message: 'Calendar usage limits exceeded.',
  },
  forbiddenForNonOrganizer: {
    domain: 'calendar',
    reason: 'forbiddenForNonOrganizer',
    message: 'Shared properties can only be changed by the organizer of the event.',
  },
  requiredAccessLevel: {
    domain: 'calendar',
    reason: 'requiredAccessLevel',
    message: 'You need to have writer access to this calendar.',
  },
};

/**
 * The body a fault rule sends when it gives none: what Google sends for that status, with the rule's
 * documented `reason` for a 403 or 429 (rateLimitExceeded when it names none).
 */
export function faultErrorBody(status: number, reason = 'rateLimitExceeded') {
  if (status === 429 || status === 403) {
    // A reason Google does not document here is sent as it is named (a test plays the unknown).
    const item = DOCUMENTED_REFUSALS[reason] ?? global(reason, reason);
    return googleErrorBody(status, item.message, [item]);
  }
  if (status === 401) return errors.unauthenticated().body();
  if (status === 404) return errors.notFound().body();
  if (status === 410) return errors.fullSyncRequired().body();
  if (status >= 500) {
    return googleErrorBody(status, 'Backend Error', [global('backendError', 'Backend Error')]);
  }
  return googleErrorBody(status, 'Bad Request', [global('badRequest', 'Bad Request')]);
}
