import { describe, expect, it } from 'vitest';
import {
  ProviderFailedError,
  ProviderRequestError,
} from '#server/domain/integrations/integration-providers.port.ts';
import { NotFoundError, TooManyRequestsError } from '#server/domain/shared/domain-errors.ts';
import { fakeClock } from '#server/domain/testing/fake-clock.ts';
import { CalendarGoneError } from '../calendar-target.port.ts';
import { RateLimitedError } from '../rate-limited-error.ts';
import type { WithToken } from '../with-token.ts';
import {
  createPreviewReads,
  FRESH_PREVIEWS_PER_MINUTE,
  PREVIEW_CALENDAR_GONE,
  PREVIEW_READ_REUSE_MS,
  PREVIEWS_HELD_BY_PROVIDER_LIMIT,
  PREVIEWS_TOO_FREQUENT,
} from './preview-reads.ts';

/** Preview reads over a provider that counts its calls; the app budget waits `appWaitMs` and records spending. */
function setUp(appWaitMs = 0) {
  const clock = fakeClock('2026-11-25T09:00:00.000Z');
  const calls: string[] = [];
  const spent: number[] = [];
  const withToken: WithToken = async (userId, kind, call) => {
    calls.push(`${userId} ${kind}`);
    return call('token');
  };
  const reads = createPreviewReads({
    withToken,
    clock,
    appBudget: {
      waitMs: async () => appWaitMs,
      spent: (_provider, count) => {
        spent.push(count);
      },
    },
  });
  return { clock, calls, spent, reads };
}

describe('preview reads', () => {
  it('reuse a read made in the last ten seconds, or in flight, and read again after', async () => {
    const { clock, calls, reads } = setUp();
    const first = reads.forPreview('ada', 'google', 'v1');
    const second = reads.forPreview('ada', 'google', 'v1');
    const both = await Promise.all([
      first('todoist', 'todoist', async () => 'tasks v1'),
      second('todoist', 'todoist', async () => 'tasks v2'),
    ]);
    expect(both).toEqual(['tasks v1', 'tasks v1']);
    expect(await reads.forPreview('bob', 'google', 'v1')('todoist', 'todoist', async () => 'bob’s')).toBe(
      'bob’s',
    );
    expect(calls).toEqual(['ada todoist', 'bob todoist']);

    clock.advance(PREVIEW_READ_REUSE_MS);
    expect(await reads.forPreview('ada', 'google', 'v1')('todoist', 'todoist', async () => 'tasks v3')).toBe(
      'tasks v3',
    );
    expect(calls).toEqual(['ada todoist', 'bob todoist', 'ada todoist']);
  });

  it('read again once the user’s sync state moved on (a run since may have changed either side)', async () => {
    const { calls, reads } = setUp();
    expect(await reads.forPreview('ada', 'google', 'v1')('todoist', 'todoist', async () => 'before')).toBe(
      'before',
    );
    expect(await reads.forPreview('ada', 'google', 'v1')('todoist', 'todoist', async () => 'same')).toBe(
      'before',
    );
    expect(await reads.forPreview('ada', 'google', 'v2')('todoist', 'todoist', async () => 'after')).toBe(
      'after',
    );
    expect(calls).toEqual(['ada todoist', 'ada todoist']);
  });

  it('let a user make a few fresh previews a minute, then answer 429 in our words until the minute is over', async () => {
    const { clock, reads } = setUp();
    for (let preview = 0; preview < FRESH_PREVIEWS_PER_MINUTE; preview += 1) {
      const read = reads.forPreview('ada', 'google', 'v1');
      // Two fresh reads of one preview count once.
      await read(`calendar c${preview}`, 'calendar', async () => []);
      await read(`calendar d${preview}`, 'calendar', async () => []);
      clock.advance(1000);
    }
    const refused = reads.forPreview('ada', 'google', 'v1')('calendar other', 'calendar', async () => []);
    await expect(refused).rejects.toThrow(TooManyRequestsError);
    await expect(refused).rejects.toThrow(PREVIEWS_TOO_FREQUENT);
    await expect(refused).rejects.toMatchObject({ retryAfterMs: 60_000 - FRESH_PREVIEWS_PER_MINUTE * 1000 });
    // A reused read is free, and another user has a limit of their own.
    expect(
      await reads.forPreview('ada', 'google', 'v1')('calendar c5', 'calendar', async () => ['x']),
    ).toEqual([]);
    expect(
      await reads.forPreview('bob', 'google', 'v1')('calendar c0', 'calendar', async () => ['b']),
    ).toEqual(['b']);

    clock.advance(60_000);
    expect(
      await reads.forPreview('ada', 'google', 'v1')('calendar other', 'calendar', async () => ['y']),
    ).toEqual(['y']);
  });

  it('spend each fresh calendar read from the app-wide budget, and wait for nobody when it is short', async () => {
    const funded = setUp();
    const read = funded.reads.forPreview('ada', 'google', 'v1');
    await read('calendar c', 'calendar', async () => []);
    await read('calendar c', 'calendar', async () => []);
    await read('todoist', 'todoist', async () => []);
    expect(funded.spent).toEqual([1]);

    const short = setUp(5_000);
    const refused = short.reads.forPreview('ada', 'google', 'v1')('calendar c', 'calendar', async () => []);
    await expect(refused).rejects.toThrow(PREVIEWS_HELD_BY_PROVIDER_LIMIT);
    await expect(refused).rejects.toMatchObject({ retryAfterMs: 5_000 });
    expect(short.calls).toEqual([]);
  });

  it('turn a provider’s failure into the error the user reads, and never keep it for reuse', async () => {
    const { calls, reads } = setUp();
    const read = reads.forPreview('ada', 'google', 'v1');
    await expect(
      read('calendar gone', 'calendar', async () => Promise.reject(new CalendarGoneError('404'))),
    ).rejects.toEqual(new NotFoundError(PREVIEW_CALENDAR_GONE));
    await expect(
      read('calendar slow', 'calendar', async () => Promise.reject(new RateLimitedError('429', 30_000))),
    ).rejects.toMatchObject({ name: 'TooManyRequestsError', retryAfterMs: 30_000 });
    await expect(
      read('todoist', 'todoist', async () => Promise.reject(new ProviderRequestError('boom', 500))),
    ).rejects.toBeInstanceOf(ProviderFailedError);
    expect(await read('calendar gone', 'calendar', async () => ['back'])).toEqual(['back']);
    expect(calls).toHaveLength(4);
  });
});
