import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { providerAppBudgets } from '#server/db/schema/sync.tables.ts';
import type { AppBudgetProvider, BudgetRule } from '../plan/provider-budget.ts';

/** taken: the calls were reserved; short: the balance (refilled to `now`) could not cover them. */
export type Reservation = { taken: true } | { taken: false; balance: number };

/** The only writer of `provider_app_budgets` (see run/app-budget.ts). */
export type ProviderAppBudgetRepository = {
  /**
   * Takes `calls` from the provider's app-wide bucket in one statement, refilled under `rule` since it
   * was last taken from, if the balance covers them and leaves `keep` (or is a whole bucket, for more
   * calls than that: the balance then goes below zero, by one bucket at most). Every worker process reserves
   * this way, so none of them can take what another took.
   */
  reserve(
    provider: AppBudgetProvider,
    calls: number,
    now: Date,
    rule: BudgetRule,
    keep?: number,
  ): Promise<Reservation>;
  /**
   * Takes `calls` already made (by runs no budget held: a user's direct runs) from the bucket whatever
   * its balance, which goes below zero by one bucket at most, so that the calls still count.
   */
  owe(provider: AppBudgetProvider, calls: number, now: Date, rule: BudgetRule): Promise<void>;
  /** The balance refilled to `now`; null before any process reserved from the provider's bucket. */
  balance(provider: AppBudgetProvider, now: Date, rule: BudgetRule): Promise<number | null>;
};

export function createProviderAppBudgetRepository(db: Db): ProviderAppBudgetRepository {
  const capacity = sql`${sql.placeholder('capacity')}::float8`;
  const calls = sql`${sql.placeholder('calls')}::float8`;
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  // The balance at `now`: refilled since the last reservation (none for a clock behind it), capped.
  const refilled = sql`least(${capacity}, ${providerAppBudgets.tokens} + greatest(0, extract(epoch from (${now} - ${providerAppBudgets.spentAt}))) * ${sql.placeholder('perSecond')}::float8)`;
  const start = db
    .insert(providerAppBudgets)
    .values({ provider: sql.placeholder('provider'), tokens: capacity, spentAt: now })
    .onConflictDoNothing()
    .prepare('provider_app_budget_start');
  const spent = {
    tokens: sql`greatest(-${capacity}, ${refilled} - ${calls})`,
    spentAt: sql`greatest(${providerAppBudgets.spentAt}, ${now})`,
  };
  const take = db
    .update(providerAppBudgets)
    .set(spent)
    .where(
      sql`${providerAppBudgets.provider} = ${sql.placeholder('provider')} and ${refilled} >= least(${calls} + ${sql.placeholder('keep')}::float8, ${capacity})`,
    )
    .returning({ tokens: providerAppBudgets.tokens })
    .prepare('provider_app_budget_take');
  const owe = db
    .update(providerAppBudgets)
    .set(spent)
    .where(sql`${providerAppBudgets.provider} = ${sql.placeholder('provider')}`)
    .prepare('provider_app_budget_owe');
  const balance = db
    .select({ balance: sql<number>`${refilled}`.mapWith(Number) })
    .from(providerAppBudgets)
    .where(sql`${providerAppBudgets.provider} = ${sql.placeholder('provider')}`)
    .prepare('provider_app_budget_balance');
  const started = new Set<AppBudgetProvider>();
  const valuesOf = (provider: AppBudgetProvider, count: number, at: Date, rule: BudgetRule, keep = 0) => ({
    provider,
    calls: count,
    keep,
    now: at,
    capacity: rule.capacity,
    perSecond: rule.perSecond,
  });
  async function startOnce(values: ReturnType<typeof valuesOf>) {
    if (started.has(values.provider)) return;
    await start.execute(values);
    started.add(values.provider);
  }

  return {
    async reserve(provider, count, at, rule, keep = 0) {
      const values = valuesOf(provider, count, at, rule, keep);
      await startOnce(values);
      const taken = await take.execute(values);
      if (taken.length > 0) return { taken: true };
      const [row] = await balance.execute(values);
      return { taken: false, balance: row?.balance ?? 0 };
    },

    async balance(provider, at, rule) {
      const [row] = await balance.execute(valuesOf(provider, 0, at, rule));
      return row ? row.balance : null;
    },

    async owe(provider, count, at, rule) {
      const values = valuesOf(provider, count, at, rule);
      await startOnce(values);
      await owe.execute(values);
    },
  };
}
