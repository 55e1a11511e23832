/** The provider asks us to slow down (429, or 403 rate-limit reasons); `retryAfterMs` from Retry-After. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  readonly retryAfterMs: number | null;

  constructor(message: string, retryAfterMs: number | null) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}
