/** The error codes a client may see, each with its HTTP status. */
const statusByCode = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  cross_site_request: 403,
  not_configured: 503,
  upstream_error: 502,
} as const;

export type AppErrorCode = keyof typeof statusByCode;

/**
 * An error of the HTTP edge (routes and plugins: not signed in, cross-site, a malformed request), with
 * its status. The domain never throws it: it throws the typed errors of
 * `domain/shared/domain-errors.ts`, which `http/plugins/errors.plugin.ts` maps (decision 011).
 * Anything that is neither becomes a generic 500.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: AppErrorCode;
  readonly statusCode: number;
  /** The fields a bad request is about, as the forms show them. */
  readonly issues: { field: string; message: string }[] | undefined;

  constructor(
    code: AppErrorCode,
    message: string,
    options?: { cause?: unknown; issues?: { field: string; message: string }[] },
  ) {
    super(message, options);
    this.code = code;
    this.statusCode = statusByCode[code];
    this.issues = options?.issues;
  }
}
