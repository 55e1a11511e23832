import { AsyncLocalStorage } from 'node:async_hooks';
import type { IntegrationKind } from '#server/domain/integrations/integration-providers.port.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import {
  type BudgetProvider,
  type BudgetRule,
  balanceAt,
  PROVIDER_BUDGETS,
  type StoredBudget,
  spend,
  waitMs,
} from '../plan/provider-budget.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncState } from '../sync-state.ts';
import type { WithToken } from '../with-token.ts';

type Calls = Record<IntegrationKind, number>;

const stored = (tokens: number | null, at: Date | null): StoredBudget | null =>
  tokens === null || at === null ? null : { tokens, at };

/**
 * The provider budgets of sync runs (see provider-budget.ts), kept in `sync_states` so that every
 * worker process sees them: a queued run first asks how long to wait (`waitMs`); every run counts the
 * provider calls it makes through `withToken` and spends them when it ends, whatever its outcome.
 */
export function createRunBudget(deps: {
  states: Pick<SyncStateRepository, 'find' | 'save'>;
  withToken: WithToken;
  clock: Clock;
  rules?: Record<BudgetProvider, BudgetRule>;
}) {
  const rules = deps.rules ?? PROVIDER_BUDGETS;
  const spending = new AsyncLocalStorage<Calls>();
  const calendarRule = (state: SyncState | null) => rules[state?.calendarProvider ?? 'google'];

  /** The calls of the run in progress are counted (the engine calls providers only through this). */
  const withToken: WithToken = (userId, kind, call) => {
    const calls = spending.getStore();
    if (calls) calls[kind] += 1;
    return deps.withToken(userId, kind, call);
  };

  return {
    withToken,

    /** How long the user's next queued run must wait for its budgets (0: it may run now). */
    waitMs(state: SyncState | null, now: Date): number {
      if (!state) return 0;
      return Math.max(
        waitMs(
          balanceAt(stored(state.todoistBudget, state.todoistBudgetAt), now, rules.todoist),
          rules.todoist,
        ),
        waitMs(
          balanceAt(stored(state.calendarBudget, state.calendarBudgetAt), now, calendarRule(state)),
          calendarRule(state),
        ),
      );
    },

    /** Runs `work` (one sync run of the user), then spends the provider calls it made. */
    async spend<T>(userId: string, work: () => Promise<T>): Promise<T> {
      const calls: Calls = { todoist: 0, calendar: 0 };
      try {
        return await spending.run(calls, work);
      } finally {
        if (calls.todoist + calls.calendar > 0) await spendCalls(userId, calls);
      }
    },
  };

  async function spendCalls(userId: string, calls: Calls) {
    const state = await deps.states.find(userId);
    // No state yet: the user's first run failed before it saved one; nothing to count against.
    if (!state) return;
    const now = deps.clock();
    const todoist = balanceAt(stored(state.todoistBudget, state.todoistBudgetAt), now, rules.todoist);
    const calendar = balanceAt(
      stored(state.calendarBudget, state.calendarBudgetAt),
      now,
      calendarRule(state),
    );
    await deps.states.save(
      userId,
      {
        todoistBudget: spend(todoist, calls.todoist, rules.todoist),
        todoistBudgetAt: now,
        calendarBudget: spend(calendar, calls.calendar, calendarRule(state)),
        calendarBudgetAt: now,
      },
      now,
    );
  }
}
