import type { AppBudgetProvider } from '../plan/provider-budget.ts';

/**
 * The app-wide provider budget the sync runs spend from (run/app-budget.ts), as the screens' reads
 * (previews, the activity's names) use it: they spend from it too, and never wait for it.
 */
export type AppBudgetSpend = {
  waitMs(provider: AppBudgetProvider, now: Date, routine: boolean): Promise<number>;
  spent(provider: AppBudgetProvider, calls: number): void;
};

/**
 * Spends one call from the budget when it can spare one now, as a routine call: 0 when spent (or there
 * is no budget), else how long until it could, and nothing is spent.
 */
export async function spendOneNow(
  budget: AppBudgetSpend | undefined,
  provider: AppBudgetProvider,
  now: Date,
): Promise<number> {
  if (!budget) return 0;
  const waitMs = await budget.waitMs(provider, now, true);
  if (waitMs > 0) return waitMs;
  budget.spent(provider, 1);
  return 0;
}
