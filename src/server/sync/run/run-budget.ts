import { AsyncLocalStorage } from 'node:async_hooks';
import type { IntegrationKind } from '#server/domain/integrations/integration-providers.port.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import {
  type AppBudgetProvider,
  type BudgetProvider,
  type BudgetRule,
  balanceAt,
  PROVIDER_BUDGETS,
  type StoredBudget,
  spend,
  waitMs,
} from '../plan/provider-budget.ts';
import type { SyncStatePatch, SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncState } from '../sync-state.ts';
import type { WithAccountToken, WithToken } from '../with-token.ts';
import type { AppBudget } from './app-budget.ts';

type Calls = Record<IntegrationKind, number>;
/**
 * The run in progress: its calls so far, the user's state as it read it (undefined: not yet), and the
 * calendar provider of the user's settings (undefined: not read yet).
 */
type Spending = {
  calls: Calls;
  /** Calls to the calendar accounts added beside the sync's, by their provider. */
  accountCalls: Record<AppBudgetProvider, number>;
  state: SyncState | null | undefined;
  provider?: AppBudgetProvider;
};
const noAccountCalls = (): Record<AppBudgetProvider, number> => ({ google: 0, microsoft: 0 });

const stored = (tokens: number | null, at: Date | null): StoredBudget | null =>
  tokens === null || at === null ? null : { tokens, at };

/** The app-wide budgets spent by the calls so far: the sync's provider's, and each added account's. */
function spentApp(app: AppBudget | undefined, provider: AppBudgetProvider, current: Spending) {
  app?.spent(provider, current.calls.calendar);
  for (const other of ['google', 'microsoft'] as const) {
    if (current.accountCalls[other] > 0) app?.spent(other, current.accountCalls[other]);
  }
}

/** The user's calendar budget counts the added accounts' calls with the sync's own. */
const userCalls = (current: Spending): Calls => ({
  todoist: current.calls.todoist,
  calendar: current.calls.calendar + current.accountCalls.google + current.accountCalls.microsoft,
});

/** How long the user's own budgets (Todoist's, their calendar's) hold their next run back. */
function userWaitMs(state: SyncState, rules: Record<BudgetProvider, BudgetRule>, now: Date): number {
  const calendarRule = rules[state.calendarProvider ?? 'google'];
  return Math.max(
    waitMs(balanceAt(stored(state.todoistBudget, state.todoistBudgetAt), now, rules.todoist), rules.todoist),
    waitMs(balanceAt(stored(state.calendarBudget, state.calendarBudgetAt), now, calendarRule), calendarRule),
  );
}

/**
 * The provider budgets of sync runs (see provider-budget.ts), kept in `sync_states` so that every
 * worker process sees them: a queued run first asks how long to wait (`waitMs`); every run counts the
 * provider calls it makes through `withToken` and spends them when it ends, whatever its outcome. The
 * calendar calls also go to the app-wide budget of the calendar's provider (app-budget.ts), when given.
 */
export function createRunBudget(deps: {
  states: Pick<SyncStateRepository, 'find' | 'save'>;
  withToken: WithToken;
  withAccountToken?: WithAccountToken;
  clock: Clock;
  rules?: Record<BudgetProvider, BudgetRule>;
  app?: AppBudget;
}) {
  const rules = deps.rules ?? PROVIDER_BUDGETS;
  const spending = new AsyncLocalStorage<Spending>();
  const calendarRule = (state: SyncState | null) => rules[state?.calendarProvider ?? 'google'];

  /** The calls of the run in progress are counted (the engine calls providers only through this). */
  const withToken: WithToken = (userId, kind, call) => {
    const current = spending.getStore();
    if (current) current.calls[kind] += 1;
    return deps.withToken(userId, kind, call);
  };

  /**
   * Calls to an added calendar account are counted too: in the user's calendar budget (as if the sync's
   * account made them: stricter than that account's own limit), and in the app-wide budget of their
   * own provider (decision 028).
   */
  const withAccountToken =
    (provider: AppBudgetProvider): WithAccountToken =>
    (userId, accountId, call) => {
      const current = spending.getStore();
      if (current) current.accountCalls[provider] += 1;
      if (!deps.withAccountToken) throw new Error('no tokens for added calendar accounts');
      return deps.withAccountToken(userId, accountId, call);
    };

  return {
    withToken,
    withAccountToken,

    /**
     * How long the user's next queued run must wait for its budgets (0: it may run now): the user's
     * own, and the app's for the user's calendar provider (of which a routine run leaves a share).
     */
    async waitMs(
      state: SyncState | null,
      calendarProvider: AppBudgetProvider,
      now: Date,
      routine = false,
    ): Promise<number> {
      const appWait = (await deps.app?.waitMs(calendarProvider, now, routine)) ?? 0;
      return state ? Math.max(appWait, userWaitMs(state, rules, now)) : appWait;
    },

    /**
     * The run in progress read the user's state: its budgets are spent from there (only the user's
     * runs, one at a time, write them), sparing a read at the end.
     */
    readState(state: SyncState | null, calendarProvider: AppBudgetProvider) {
      const current = spending.getStore();
      if (!current) return;
      current.state = state;
      current.provider = calendarProvider;
    },

    /**
     * The calls of the run so far, spent, as a patch for the state the run saves at its end (one
     * statement instead of two); calls after it are spent when the run ends.
     */
    settle(provider: AppBudgetProvider, now: Date): SyncStatePatch {
      const current = spending.getStore();
      if (!current) return {};
      const patch = spentPatch(rules, current.state ?? null, userCalls(current), rules[provider], now);
      spentApp(deps.app, provider, current);
      current.calls = { todoist: 0, calendar: 0 };
      current.accountCalls = noAccountCalls();
      current.state = undefined;
      return patch;
    },

    /** Runs `work` (one sync run of the user), then spends the provider calls it made. */
    async spend<T>(userId: string, work: () => Promise<T>): Promise<T> {
      const current: Spending = {
        calls: { todoist: 0, calendar: 0 },
        accountCalls: noAccountCalls(),
        state: undefined,
      };
      try {
        return await spending.run(current, work);
      } finally {
        spentApp(deps.app, current.provider ?? current.state?.calendarProvider ?? 'google', current);
        const calls = userCalls(current);
        if (calls.todoist + calls.calendar > 0) await spendCalls(userId, calls, current.state);
      }
    },
  };

  async function spendCalls(userId: string, calls: Calls, known: SyncState | null | undefined) {
    // A run that read no state (it failed first, or settled already) reads it now.
    const state = known ?? (await deps.states.find(userId));
    // No state yet: the user's first run failed before it saved one; nothing to count against.
    if (!state) return;
    const now = deps.clock();
    await deps.states.save(userId, spentPatch(rules, state, calls, calendarRule(state), now), now);
  }
}

/** The user's budgets after the calls, as a patch of their state. */
function spentPatch(
  rules: Record<BudgetProvider, BudgetRule>,
  state: SyncState | null,
  calls: Calls,
  calendarRule: BudgetRule,
  now: Date,
) {
  const todoist = balanceAt(
    stored(state?.todoistBudget ?? null, state?.todoistBudgetAt ?? null),
    now,
    rules.todoist,
  );
  const calendar = balanceAt(
    stored(state?.calendarBudget ?? null, state?.calendarBudgetAt ?? null),
    now,
    calendarRule,
  );
  return {
    todoistBudget: spend(todoist, calls.todoist, rules.todoist),
    todoistBudgetAt: now,
    calendarBudget: spend(calendar, calls.calendar, calendarRule),
    calendarBudgetAt: now,
  };
}
