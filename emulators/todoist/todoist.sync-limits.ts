import { z } from 'zod';

/**
 * Todoist's published per-user limits on `/api/v1/sync`: 1,000 partial syncs and 100 full syncs (a read
 * with sync token `*`) per user within 15 minutes. Beyond them Todoist answers 429 `LIMITS_REACHED`
 * with `retry_after`. Counted here over a sliding window; `POST /_emulator/limits` sets smaller ones
 * (tests), `DELETE` restores these.
 */
export const PUBLISHED_SYNC_LIMITS = { partial: 1000, full: 100, windowSeconds: 15 * 60 };

export const syncLimitsSchema = z.object({
  partial: z.number().int().positive(),
  full: z.number().int().positive(),
  windowSeconds: z.number().int().positive(),
});
export type SyncLimits = z.infer<typeof syncLimitsSchema>;

export type SyncLimiter = {
  /** Counts one sync request of the user; null when it is within the limits, else seconds to wait. */
  take(userId: string, kind: 'partial' | 'full', nowMs: number): number | null;
  limits(): SyncLimits;
  set(limits: SyncLimits): void;
  reset(): void;
};

export function createSyncLimiter(): SyncLimiter {
  let limits: SyncLimits = { ...PUBLISHED_SYNC_LIMITS };
  /** Per user and kind: when each request within the window came (oldest first). */
  const seen = new Map<string, number[]>();

  return {
    take(userId, kind, nowMs) {
      const key = `${userId}:${kind}`;
      const windowMs = limits.windowSeconds * 1000;
      const times = (seen.get(key) ?? []).filter((at) => at > nowMs - windowMs);
      const limit = kind === 'full' ? limits.full : limits.partial;
      if (times.length >= limit) {
        seen.set(key, times);
        // Free again once the oldest request of the window leaves it.
        return Math.max(1, Math.ceil(((times[0] ?? nowMs) + windowMs - nowMs) / 1000));
      }
      times.push(nowMs);
      seen.set(key, times);
      return null;
    },
    limits: () => ({ ...limits }),
    set(next) {
      limits = { ...next };
    },
    reset() {
      limits = { ...PUBLISHED_SYNC_LIMITS };
      seen.clear();
    },
  };
}
