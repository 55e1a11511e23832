import { GraphError } from '@microsoft/microsoft-graph-client';
import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '#server/sync/rate-limited-error.ts';
import { graphFailure, retryAfterMs } from './microsoft-graph.client.ts';

const NOW = new Date('2026-03-02T09:00:00.000Z');

function throttled(status: number, retryAfter: string | null): GraphError {
  const error = new GraphError(status, 'slow down');
  if (retryAfter !== null) error.headers = new Headers({ 'retry-after': retryAfter });
  return error;
}

describe('retryAfterMs', () => {
  it('reads seconds, and an HTTP date as the time left from the given now', () => {
    expect(retryAfterMs(throttled(429, '7'), NOW.getTime())).toBe(7000);
    expect(retryAfterMs(throttled(429, 'Mon, 02 Mar 2026 09:00:30 GMT'), NOW.getTime())).toBe(30_000);
    expect(retryAfterMs(throttled(429, 'Mon, 02 Mar 2026 08:59:00 GMT'), NOW.getTime())).toBe(0);
  });

  it('is null without a readable header', () => {
    expect(retryAfterMs(throttled(429, null), NOW.getTime())).toBeNull();
    expect(retryAfterMs(throttled(429, 'soon'), NOW.getTime())).toBeNull();
    expect(retryAfterMs(new Error('not Graph'), NOW.getTime())).toBeNull();
  });
});

describe('graphFailure', () => {
  it('turns a 503 with a Retry-After date into a rate limit measured from the clock', () => {
    const failure = graphFailure(
      throttled(503, 'Mon, 02 Mar 2026 09:01:00 GMT'),
      'read calendar changes',
      NOW,
    );
    expect(failure).toBeInstanceOf(RateLimitedError);
    expect(failure).toHaveProperty('retryAfterMs', 60_000);
  });
});
