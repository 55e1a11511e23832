import type { Logger } from 'pino';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { type AppBudgetProvider, appBudgetRules, type BudgetRule } from '../plan/provider-budget.ts';
import type { ProviderAppBudgetRepository } from '../store/provider-app-budget.repository.ts';

/**
 * What this process holds of a provider's app-wide budget: calls reserved and not yet made (below
 * zero: made beyond its reservation, a debt the next reservation covers), and, after a reservation the
 * balance could not cover, when to ask again.
 */
type Held = {
  calls: number;
  shortUntil: number;
  /** Until when routine runs wait: the balance is down to what is kept for live changes. */
  routineShortUntil: number;
  reserving: Promise<void> | null;
  owing: boolean;
};

export type AppBudget = ReturnType<typeof createAppBudget>;

/** Runs held this long or longer by the app's budget are named on the dashboard (the user's changes wait). */
export const HELD_NOTICE_MS = 10_000;

/**
 * The share of each app-wide bucket routine runs (the reconcile's) leave to runs of users' changes: a
 * reconcile wave that reaches the provider's limit slows down itself, and a change still goes through
 * at once. The refill goes to this share first.
 */
export const KEPT_FOR_LIVE_RUNS = 0.25;

/** Calls a process reserves at a time: a statement per that many calls, and at most that many idle. */
export const RESERVED_AT_A_TIME: Record<AppBudgetProvider, number> = { google: 20, microsoft: 100 };

type AppBudgetDeps = {
  store: ProviderAppBudgetRepository;
  clock: Clock;
  log: Logger;
  rules?: Record<AppBudgetProvider, BudgetRule>;
  reservedAtATime?: Record<AppBudgetProvider, number>;
  /** 0 to 1: how much of the spread is added to a wait (default Math.random). */
  random?: () => number;
  /** Told each time a reservation finds the balance spent (for routine runs: down to live runs' share). */
  onShort?: (provider: AppBudgetProvider) => void;
};

const kept = (rule: BudgetRule) => rule.capacity * KEPT_FOR_LIVE_RUNS;

/** When the balance will have refilled by what it lacks of `needed` (ms since the epoch). */
const refilledAt = (needed: number, balance: number, rule: BudgetRule, now: Date) =>
  now.getTime() + Math.ceil((Math.max(0, needed - balance) / rule.perSecond) * 1000);

/**
 * 0: the run may call the provider; a wait in ms (`wait` adds its spread); null: a reservation must be
 * asked for first.
 */
function verdict(own: Held, routine: boolean, now: Date, wait: (ms: number) => number): number | null {
  const at = now.getTime();
  if (routine && own.routineShortUntil > at) return wait(own.routineShortUntil - at);
  if (own.calls > 0) return 0;
  if (own.shortUntil > at) return wait(own.shortUntil - at);
  return null;
}

/**
 * The app-wide provider budgets (provider-budget.ts, `appBudgetRules`), shared by every worker process
 * through one row per provider, so that Google's per-project and Microsoft's per-app limits hold however
 * many workers run. A process reserves calls from the row a few at a time (`RESERVED_AT_A_TIME`) and
 * its runs spend from that reservation, so the row is written once per batch of calls, not once per run.
 * While the app's balance cannot cover a reservation, the process's queued runs wait until it will have
 * refilled, each with a random part of half that wait (a second at least) added, so that held runs do
 * not all come back at once.
 * Runs spend after the fact (as a user's budget, see run-budget.ts): the runs in flight may spend beyond
 * the reservation, which the next reservation makes up for; the rules leave a tenth of each limit for it.
 * A debt of a whole batch is recorded at once, also where no run waits (the web process's direct runs).
 * Routine runs (the reconcile's) reserve only while the balance keeps `KEPT_FOR_LIVE_RUNS` of the bucket
 * beyond their batch, so the runs of users' changes find calls left during a reconcile wave.
 */
export function createAppBudget(deps: AppBudgetDeps) {
  const rules = deps.rules ?? appBudgetRules();
  const atATime = deps.reservedAtATime ?? RESERVED_AT_A_TIME;
  const random = deps.random ?? Math.random;
  const held: Record<AppBudgetProvider, Held> = {
    google: { calls: 0, shortUntil: 0, routineShortUntil: 0, reserving: null, owing: false },
    microsoft: { calls: 0, shortUntil: 0, routineShortUntil: 0, reserving: null, owing: false },
  };

  async function reserve(provider: AppBudgetProvider, now: Date, routine: boolean): Promise<void> {
    const own = held[provider];
    const rule = rules[provider];
    // The next batch, and any debt of the runs that spent beyond the last one.
    const calls = atATime[provider] - Math.min(0, own.calls);
    const keep = routine ? kept(rule) : 0;
    const reservation = await deps.store.reserve(provider, calls, now, rule, keep);
    if (reservation.taken) {
      own.calls += calls;
      return;
    }
    const needed = Math.min(calls, rule.capacity);
    own.routineShortUntil = refilledAt(
      Math.min(calls + kept(rule), rule.capacity),
      reservation.balance,
      rule,
      now,
    );
    deps.onShort?.(provider);
    if (reservation.balance >= needed) {
      deps.log.info(
        { provider, balance: reservation.balance, waitMs: own.routineShortUntil - now.getTime() },
        "the app-wide provider budget is down to live changes' share: reconcile runs wait for it to refill",
      );
      return;
    }
    own.shortUntil = refilledAt(needed, reservation.balance, rule, now);
    deps.log.warn(
      { provider, balance: reservation.balance, waitMs: own.shortUntil - now.getTime() },
      'the app-wide provider budget is spent: queued runs wait for it to refill',
    );
  }

  /**
   * Records a debt of a batch or more at once, whatever the balance: a process whose runs never wait
   * (the web process's direct runs) never reserves, and its calls must count all the same.
   */
  async function owe(provider: AppBudgetProvider) {
    const own = held[provider];
    const debt = -own.calls;
    own.owing = true;
    own.calls += debt;
    try {
      await deps.store.owe(provider, debt, deps.clock(), rules[provider]);
    } catch (error) {
      own.calls -= debt;
      deps.log.error(
        { err: error, provider, calls: debt },
        'recording calls made beyond the app budget failed',
      );
    } finally {
      own.owing = false;
    }
  }

  // The queue starts a held run again on a whole second, so the spread is a second at least: held runs
  // come back over up to half their wait again, never at one moment.
  const withJitter = (ms: number) => Math.max(1, ms) + Math.round(random() * Math.max(1000, ms / 2));

  return {
    /**
     * How long a queued run that calls the provider must wait for the app's budget (0: it may run). A
     * process that holds no reservation reserves first (one reservation at a time). A `routine` run (the
     * reconcile's) also waits while the balance is down to what is kept for live runs.
     */
    async waitMs(provider: AppBudgetProvider, now: Date, routine = false): Promise<number> {
      const own = held[provider];
      // A live run that found a routine reservation in flight asks again for itself, once.
      for (let asked = 0; asked < 2; asked++) {
        const wait = verdict(own, routine, now, withJitter);
        if (wait !== null) return wait;
        own.reserving ??= reserve(provider, now, routine).finally(() => {
          own.reserving = null;
        });
        await own.reserving;
      }
      return verdict(own, routine, now, withJitter) ?? withJitter(0);
    },

    /**
     * When the app's budget will cover a reservation again, if that is `HELD_NOTICE_MS` or more away: the
     * provider's runs wait until then (null: they do not, or briefly). Read from the bucket, so any
     * process (the web process answering the dashboard) sees what the workers do.
     */
    async heldUntil(provider: AppBudgetProvider, now: Date): Promise<Date | null> {
      const rule = rules[provider];
      const balance = await deps.store.balance(provider, now, rule);
      if (balance === null) return null;
      const short = Math.min(atATime[provider], rule.capacity) - balance;
      const waitMs = Math.ceil((short / rule.perSecond) * 1000);
      return waitMs >= HELD_NOTICE_MS ? new Date(now.getTime() + waitMs) : null;
    },

    /** A run made `calls` calls to the provider (queued or not: every call counts). */
    spent(provider: AppBudgetProvider, calls: number) {
      const own = held[provider];
      own.calls -= calls;
      if (own.calls <= -atATime[provider] && !own.owing && !own.reserving) void owe(provider);
    },
  };
}
