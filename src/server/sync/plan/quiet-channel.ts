/**
 * How long a provider may take to tell of a change before its silence counts. Google's and Graph's
 * notifications come within seconds, and a run reads the change right after; a change that an
 * incremental read meets only this long after it happened was announced by nothing.
 */
export const PUSH_GRACE_MS = 5 * 60_000;

/**
 * Whether the push channel went quiet (docs/product-rules.md §10 "Push channels"): an incremental read
 * of the calendar (not a full one: that returns old events too) met a change made after the channel
 * last delivered (`pushHeardAt`) and more than `PUSH_GRACE_MS` ago. Its notification never came:
 * Google stopped a channel without a word, or Graph removed a subscription and its lifecycle event was
 * lost. The run opens the channel again rather than waiting days for its stated expiry, so the sync
 * is back to seconds instead of the reconcile's 15 minutes. A change whose notice came, however late
 * its run, is older than the moment it was heard, so a run held back (a quota, a back-off) is not
 * taken for a quiet channel; nor is a channel opened after the change (sync switched on again).
 */
export function channelWentQuiet(input: {
  changedAt: readonly (Date | null)[];
  pushHeardAt: Date | null;
  now: Date;
}): boolean {
  if (!input.pushHeardAt) return false;
  const heard = input.pushHeardAt.getTime();
  const settled = input.now.getTime() - PUSH_GRACE_MS;
  return input.changedAt.some((at) => at !== null && at.getTime() > heard && at.getTime() <= settled);
}
