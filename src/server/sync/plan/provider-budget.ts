/**
 * How many provider calls a user's sync may make, as a budget per user and provider that allows bursts
 * and refills over the provider's window (a token bucket), instead of a fixed pause between runs: a
 * user's quick edits each go out at once, and a user who edits without pause stays within the
 * provider's published per-user limit (docs/decisions/017-provider-budgets.md).
 *
 * A bucket holds at most `capacity` calls and refills at `perSecond`. Over any window of `windowSeconds`
 * the most a user can spend is `capacity + perSecond × windowSeconds`, which each rule keeps at or
 * under the provider's limit. A run spends what it actually called, so the balance can go below zero
 * (a run is not cut short midway); the next queued run waits until the debt is refilled. The debt is
 * at most one bucket (`spend`): a run far larger than the budget (a first sync of a thousand tasks) has
 * met the provider's own limit already (its 429 and Retry-After are honoured), and holding the user's
 * next change for minutes would not undo it.
 */

export type BudgetRule = {
  /** Calls a user may make at once after a quiet spell. */
  capacity: number;
  /** Calls refilled per second. */
  perSecond: number;
  /** The provider's published limit, and the window it counts in: what the rule must stay within. */
  limit: { calls: number; windowSeconds: number };
};

export type BudgetProvider = 'todoist' | 'google' | 'microsoft';

/**
 * The published per-user limits: Todoist, 1,000 partial syncs per user per 15 minutes (its API
 * documentation, "Limits"); Microsoft Graph, 10,000 requests per app and mailbox per 10 minutes
 * (Outlook service limits). Google Calendar publishes no per-user figure (quotas are set per project
 * in the Cloud Console); 600 per minute per user is the default there.
 */
export const PROVIDER_BUDGETS: Record<BudgetProvider, BudgetRule> = {
  todoist: { capacity: 150, perSecond: 0.9, limit: { calls: 1000, windowSeconds: 900 } },
  google: { capacity: 100, perSecond: 8, limit: { calls: 600, windowSeconds: 60 } },
  microsoft: { capacity: 500, perSecond: 15, limit: { calls: 10_000, windowSeconds: 600 } },
};

/** The providers that also limit the whole app: Google per Cloud project, Microsoft per app id. */
export type AppBudgetProvider = 'google' | 'microsoft';

/**
 * The app-wide budgets, shared by every worker process through the database (run/app-budget.ts): a
 * bucket refilled at 80% of the limit's rate and holding a tenth of it, so that what all users together
 * can spend in a window stays at 90% of the limit; the rest covers the calls a process has made but not
 * yet written back (at most about a second's worth).
 * - Google Calendar: "per minute per project", 10,000 requests by default (the Calendar API's usage
 *   limits), and raised per project in the Cloud Console: `googleRequestsPerMinute`.
 * - Microsoft Graph: 130,000 requests per 10 seconds per app across all tenants (Graph's throttling
 *   limits).
 * Todoist publishes no limit per app, only per user.
 */
export function appBudgetRules(googleRequestsPerMinute = 10_000): Record<AppBudgetProvider, BudgetRule> {
  const rule = (calls: number, windowSeconds: number): BudgetRule => ({
    capacity: calls * 0.1,
    perSecond: (calls * 0.8) / windowSeconds,
    limit: { calls, windowSeconds },
  });
  return { google: rule(googleRequestsPerMinute, 60), microsoft: rule(130_000, 10) };
}

/** The most a user can spend within one window of the provider under `rule`. */
export const mostPerWindow = (rule: BudgetRule) => rule.capacity + rule.perSecond * rule.limit.windowSeconds;

/** A bucket as stored: its balance when last spent from, and when that was. */
export type StoredBudget = { tokens: number; at: Date };

/** The balance at `now`: refilled since it was stored, never above the capacity. A new user's is full. */
export function balanceAt(stored: StoredBudget | null, now: Date, rule: BudgetRule): number {
  if (!stored) return rule.capacity;
  const seconds = Math.max(0, (now.getTime() - stored.at.getTime()) / 1000);
  return Math.min(rule.capacity, stored.tokens + seconds * rule.perSecond);
}

/** The balance after `calls` were made from `balance`: at least minus one bucket (see above). */
export function spend(balance: number, calls: number, rule: BudgetRule): number {
  return Math.max(-rule.capacity, balance - calls);
}

/** How long until a run may call the provider again: 0 while the balance is above zero. */
export function waitMs(balance: number, rule: BudgetRule): number {
  return balance > 0 ? 0 : Math.ceil(((1 - balance) / rule.perSecond) * 1000);
}
