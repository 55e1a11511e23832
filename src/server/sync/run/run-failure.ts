import { ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { CalendarGoneError } from '../calendar-target.port.ts';
import { RateLimitedError } from '../rate-limited-error.ts';
import type { SyncActivityRepository } from '../store/sync-activity.repository.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncOutcome } from './sync-outcome.ts';

/**
 * A provider's failure the user must solve (reconnect, a calendar gone) or wait out (its rate limit)
 * becomes their problem and the run's outcome; any other failure is thrown on (the queue retries it).
 */
export async function handleFailure(
  deps: { clock: Clock; activity: SyncActivityRepository; states: SyncStateRepository },
  userId: string,
  error: unknown,
): Promise<SyncOutcome> {
  const now = deps.clock();
  if (error instanceof ReconnectRequiredError) {
    const problem = error.kind === 'todoist' ? 'reconnect-todoist' : 'reconnect-calendar';
    await deps.activity.raise(userId, problem, now);
    return { status: 'blocked', problem };
  }
  if (error instanceof CalendarGoneError) {
    await deps.activity.raise(userId, 'calendar-missing', now);
    return { status: 'blocked', problem: 'calendar-missing' };
  }
  if (error instanceof RateLimitedError) {
    const afterMs = Math.max(error.retryAfterMs ?? 60_000, 1000);
    await deps.states.save(userId, { backoffUntil: new Date(now.getTime() + afterMs) }, now);
    await deps.activity.raise(userId, 'quota-reached', now);
    return { status: 'retry-later', afterMs };
  }
  throw error;
}
