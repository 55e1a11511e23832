import {
  type IntegrationKind,
  ProviderFailedError,
  ProviderRequestError,
} from '#server/domain/integrations/integration-providers.port.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { NotFoundError, TooManyRequestsError } from '#server/domain/shared/domain-errors.ts';
import { CalendarGoneError } from '../calendar-target.port.ts';
import type { AppBudgetProvider } from '../plan/provider-budget.ts';
import { RateLimitedError } from '../rate-limited-error.ts';
import type { WithAccountToken, WithToken } from '../with-token.ts';
import { type AppBudgetSpend, spendOneNow } from './budget-spend.ts';

/**
 * A preview's provider reads are reused this long: a burst of previews (a dialog opened again and again,
 * or twice at once) reads once. Short, so that a change the user just made is in the next preview; and
 * only while the user's sync state is as it was (a run since may have changed either side).
 */
export const PREVIEW_READ_REUSE_MS = 10_000;
/** Previews that read a provider afresh, per user and minute; reused ones are free. */
export const FRESH_PREVIEWS_PER_MINUTE = 6;
const MINUTE_MS = 60_000;

export const PREVIEWS_TOO_FREQUENT =
  'You asked for several previews in a short time. Please wait a minute, then try again.';
export const PREVIEWS_HELD_BY_PROVIDER_LIMIT =
  'Your calendar provider’s limit for Timeboxer is reached for the moment. Please try the preview again in a minute.';
export const PREVIEW_PROVIDER_SLOWED =
  'Todoist or your calendar asked us to slow down. Please try the preview again in a minute.';
export const PREVIEW_CALENDAR_GONE =
  'That calendar no longer exists, or is no longer shared with you. Please choose another calendar.';

/** A provider's failure during a preview, as the domain's error the user reads (never a 500). */
function previewFailure(kind: IntegrationKind, error: unknown): unknown {
  if (error instanceof CalendarGoneError) return new NotFoundError(PREVIEW_CALENDAR_GONE);
  if (error instanceof RateLimitedError) {
    return new TooManyRequestsError(PREVIEW_PROVIDER_SLOWED, error.retryAfterMs ?? MINUTE_MS);
  }
  if (error instanceof ProviderRequestError) return new ProviderFailedError(kind, { cause: error });
  return error;
}

/** The version of a user's sync state that preview reads are reused at: it moves with every run. */
export const syncStateVersion = (state: { updatedAt: Date } | null | undefined) =>
  state ? state.updatedAt.toISOString() : 'never synced';

export type PreviewReadsDeps = {
  withToken: WithToken;
  /** Tokens of the calendar accounts added beside the sync's (Plan my day's preview reads their busy times). */
  withAccountToken?: WithAccountToken | undefined;
  clock: Clock;
  /** The app-wide provider budget the sync runs spend from (run/app-budget.ts); previews spend from it too. */
  appBudget?: AppBudgetSpend;
};

/**
 * The provider reads of the previews (switch-on, a settings change, Plan my day): every one goes through
 * here, so that
 * - a read made in the last `PREVIEW_READ_REUSE_MS` (or in flight) is reused, not made again;
 * - a user makes at most `FRESH_PREVIEWS_PER_MINUTE` previews that read afresh (more: 429 in our words);
 * - a preview waits for nobody: when the app-wide budget of the calendar's provider cannot spare calls
 *   (it leaves live changes their share), the preview is refused with a 429, and the calls it makes are
 *   spent from that budget like a sync run's.
 * Kept in this process's memory only, and only as long as they are reused.
 */
export function createPreviewReads(deps: PreviewReadsDeps) {
  const reads = new Map<string, { at: number; value: Promise<unknown> }>();
  const freshPreviews = new Map<string, number[]>();

  function forget(now: number) {
    for (const [key, read] of reads) if (now - read.at >= PREVIEW_READ_REUSE_MS) reads.delete(key);
    for (const [userId, times] of freshPreviews) {
      const recent = times.filter((time) => now - time < MINUTE_MS);
      if (recent.length === 0) freshPreviews.delete(userId);
      else freshPreviews.set(userId, recent);
    }
  }

  /** Counts a fresh preview of the user, or refuses it beyond the per-minute limit. */
  function admit(userId: string, now: number) {
    const times = freshPreviews.get(userId) ?? [];
    if (times.length >= FRESH_PREVIEWS_PER_MINUTE) {
      const oldest = times[0] ?? now;
      throw new TooManyRequestsError(PREVIEWS_TOO_FREQUENT, oldest + MINUTE_MS - now);
    }
    freshPreviews.set(userId, [...times, now]);
  }

  return {
    /**
     * Starts one preview of the user: the reads it makes through the returned `read` are reused when
     * recent and made at the same `syncStateVersion` (the user's sync state as last written), and those it
     * makes afresh count against the user's limit (once per preview) and the app's budget of `provider`.
     */
    forPreview(userId: string, provider: AppBudgetProvider, syncStateVersion: string) {
      let admitted = false;
      /** A read through the cache: `budget` is the provider whose app-wide budget a fresh call spends from. */
      async function cached<T>(
        key: string,
        kind: 'todoist' | 'calendar',
        budget: AppBudgetProvider | null,
        call: () => Promise<T>,
      ): Promise<T> {
        const now = deps.clock().getTime();
        forget(now);
        const fullKey = `${userId}\n${syncStateVersion}\n${key}`;
        const recent = reads.get(fullKey);
        if (recent)
          return (recent.value as Promise<T>).catch((error: unknown) =>
            Promise.reject(previewFailure(kind, error)),
          );
        if (!admitted) {
          admit(userId, now);
          admitted = true;
        }
        if (budget) {
          const waitMs = await spendOneNow(deps.appBudget, budget, deps.clock());
          if (waitMs > 0) throw new TooManyRequestsError(PREVIEWS_HELD_BY_PROVIDER_LIMIT, waitMs);
        }
        const value = call();
        reads.set(fullKey, { at: now, value });
        return value.catch((error: unknown) => {
          reads.delete(fullKey);
          throw previewFailure(kind, error);
        });
      }
      const read = <T>(key: string, kind: 'todoist' | 'calendar', call: (token: string) => Promise<T>) =>
        cached(key, kind, kind === 'calendar' ? provider : null, () => deps.withToken(userId, kind, call));
      /**
       * The same for the calendar accounts added beside the sync's (by row id), with their own
       * provider's budget: `what` names the read (its span) for reuse, beside the account.
       */
      const account =
        (accountProvider: AppBudgetProvider, what: string): WithAccountToken =>
        (owner, accountId, call) =>
          cached(`account ${accountId} ${what}`, 'calendar', accountProvider, () => {
            if (!deps.withAccountToken) throw new Error('no tokens for added calendar accounts');
            return deps.withAccountToken(owner, accountId, call);
          });
      return Object.assign(read, { account });
    },
  };
}

export type PreviewReads = ReturnType<typeof createPreviewReads>;
export type PreviewRead = ReturnType<PreviewReads['forPreview']>;
