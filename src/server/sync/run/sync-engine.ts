import type { Logger } from 'pino';
import { ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
import type { SettingsRepository } from '#server/domain/settings/settings.repository.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { type CalendarTarget, EventChangedError } from '../calendar-target.port.ts';
import type { SyncChannels } from '../inbound/sync-channels.ts';
import { forgetPlacements } from '../plan/autoplan/autoplan-step.ts';
import { titleHasher } from '../plan/event-title.ts';
import { otherSyncSeen } from '../plan/other-sync.ts';
import type { BudgetProvider, BudgetRule } from '../plan/provider-budget.ts';
import { channelWentQuiet } from '../plan/quiet-channel.ts';
import { type BrakeThresholds, DEFAULT_BRAKE } from '../plan/removal-brake.ts';
import { scopeHash } from '../plan/sync-scope.ts';
import { RateLimitedError } from '../rate-limited-error.ts';
import type { OtherAccountsReader } from '../store/other-accounts.reader.ts';
import type { SyncActivityRepository } from '../store/sync-activity.repository.ts';
import type { SyncHintRepository } from '../store/sync-hint.repository.ts';
import type { SyncLinkRepository } from '../store/sync-link.repository.ts';
import type { SyncRunLeaseRepository } from '../store/sync-run-lease.repository.ts';
import type { RunStartRows, SyncRunStart } from '../store/sync-run-start.repository.ts';
import type { SyncSettingsReader } from '../store/sync-settings.repository.ts';
import type { SyncStatePatch, SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncSettings } from '../sync-settings.ts';
import { BOTH_SIDES } from '../sync-sides.ts';
import type { SyncState } from '../sync-state.ts';
import type { TaskSource } from '../task-source.port.ts';
import type { TokenScope, WithAccountToken, WithToken } from '../with-token.ts';
import type { AppBudget } from './app-budget.ts';
import { runAutoplan } from './autoplan-run.ts';
import { createBrakeRecord } from './brake-record.ts';
import { leftBehindTasks, relocatePairs } from './calendar-switch.ts';
import type { WriteTarget } from './execute-plans.ts';
import { busyInOtherAccounts } from './other-accounts-busy.ts';
import { planAndWrite } from './plan-and-write.ts';
import { readSides, type SidesRead } from './read-sides.ts';
import { type Admitted, admit } from './run-admission.ts';
import { createRunBudget } from './run-budget.ts';
import { handleFailure } from './run-failure.ts';
import { createRunLease, type HeldLease, type LeasePhase } from './run-lease.ts';
import type { SyncOutcome } from './sync-outcome.ts';

export type SyncEngineDeps = {
  settings: SyncSettingsReader;
  /** Where the Todoist labels a run reads go: settings follow their labels by id. */
  labels: Pick<SettingsRepository, 'applyLabelChanges' | 'forgetLabelRenames' | 'saveTodoistProjects'>;
  links: SyncLinkRepository;
  states: SyncStateRepository;
  activity: SyncActivityRepository;
  hints: SyncHintRepository;
  channels: SyncChannels;
  tasks: TaskSource;
  calendars: Record<'google' | 'microsoft', CalendarTarget | null>;
  withToken: WithToken;
  /** Tokens of the calendar accounts added beside the sync's, and where they are listed (Plan my day's busy times). */
  withAccountToken?: WithAccountToken;
  otherAccounts?: OtherAccountsReader;
  /** Each connection's row read once per run (default: read on every call). */
  tokenScope?: TokenScope;
  clock: Clock;
  log: Logger;
  /** One run per user at a time, across processes. */
  leases: SyncRunLeaseRepository;
  /**
   * The lease taken and the run's settings and state read in one statement (default: the lease, the
   * settings and the state one after another).
   */
  runStart?: SyncRunStart;
  /** The provider budgets of a user's runs (default PROVIDER_BUDGETS). */
  budgets?: Record<BudgetProvider, BudgetRule>;
  /** The app-wide budgets of Google and Microsoft, shared by every worker (none: not held to them). */
  appBudget?: AppBudget;
  /** The safety brake's thresholds (default DEFAULT_BRAKE). */
  brake?: BrakeThresholds;
};

export type RunOptions = {
  /** The queue's runs wait while the user's provider budget is spent (run-budget.ts); a direct call runs now. */
  spaced?: boolean;
  /**
   * A routine run (the reconcile's visit), not a user's change: it leaves a share of the provider's
   * app-wide budget to the changes' runs (app-budget.ts).
   */
  routine?: boolean;
  /**
   * Read only the sides a notification or request asked for (the queue's runs); a direct call reads
   * both. See `readPlan`.
   */
  requestedSidesOnly?: boolean;
  /** Told as the run takes its user's lease and gives it back (`LeasePhase`). */
  held?: (phase: LeasePhase) => void;
};

/**
 * One sync run for one user: read incrementally, plan, write, then move the read positions on. The
 * positions move only after every write is recorded, so a run that dies anywhere is repeated from the
 * same changes; creates are keyed (see `createKey`), so the repeat makes nothing twice.
 */
export function createSyncEngine(deps: SyncEngineDeps) {
  const thresholds = deps.brake ?? DEFAULT_BRAKE;
  const budget = createRunBudget({
    ...deps,
    ...(deps.budgets ? { rules: deps.budgets } : {}),
    ...(deps.appBudget ? { app: deps.appBudget } : {}),
  });
  const { otherAccounts } = deps;
  const engine: Engine = {
    ...deps,
    withToken: budget.withToken,
    stillOn: (userId: string) => deps.settings.autoplanOn(userId),
    ...(otherAccounts &&
      deps.withAccountToken && {
        busyInOtherAccounts: (userId: string, from: Date, to: Date) =>
          busyInOtherAccounts(
            {
              otherAccounts,
              calendars: deps.calendars,
              log: deps.log,
              withAccountToken: budget.withAccountToken,
            },
            userId,
            from,
            to,
          ),
      }),
    budget,
    lease: createRunLease(deps),
    runStart: deps.runStart ?? runStartOneByOne(deps),
    brakeRecord: createBrakeRecord({ ...deps, thresholds }),
    thresholds,
  };
  return { run: (userId: string, options: RunOptions = {}) => run(engine, userId, options) };
}

/** The engine's dependencies, with the runtime its runs share (budgets, lease, brake record). */
type Engine = Omit<SyncEngineDeps, 'withToken'> & {
  /** Counts every provider call against the user's budget. */
  withToken: WithToken;
  busyInOtherAccounts?: (userId: string, from: Date, to: Date) => Promise<{ start: Date; end: Date }[]>;
  /** Plan my day still on, asked before its placed times are written (autoplan-run.ts). */
  stillOn: (userId: string) => Promise<boolean>;
  budget: ReturnType<typeof createRunBudget>;
  lease: ReturnType<typeof createRunLease>;
  runStart: SyncRunStart;
  brakeRecord: ReturnType<typeof createBrakeRecord>;
  thresholds: BrakeThresholds;
};

/**
 * Every event update names the version the run planned from: the one it read, or for an event it did
 * not read (a run reading one side only, or an event unchanged since the last read), the link's last
 * known one. When the user changed that event meanwhile (after the read, or with its notification still
 * on the way), the provider refuses and the run is done again reading both sides, so the user's change
 * is planned with, never overwritten.
 */
function run(engine: Engine, userId: string, options: RunOptions): Promise<SyncOutcome> {
  const work = (started: RunStartRows | null, lease: HeldLease | null) =>
    engine.budget.spend(userId, async () => {
      try {
        return await runOnce(engine, userId, options, started, lease);
      } catch (error) {
        if (!(error instanceof EventChangedError)) throw error;
        engine.log.info(
          { userId },
          'an event changed since the run planned its update; reading both sides again',
        );
        // Read again: the first attempt may have recorded writes.
        return runOnce(engine, userId, { ...options, requestedSidesOnly: false }, null, lease);
      }
    });
  return engine.lease.holding<SyncOutcome, RunStartRows>(
    userId,
    (started, lease) =>
      engine.tokenScope ? engine.tokenScope.run(() => work(started, lease)) : work(started, lease),
    (afterMs) => ({ status: 'retry-later', afterMs, anotherRun: true }),
    options.held,
    (owner, until, now) => engine.runStart.take(userId, owner, until, now),
  );
}

/** The run's start without the one statement: the lease, then the settings and the state. */
function runStartOneByOne(deps: Pick<SyncEngineDeps, 'leases' | 'settings' | 'states'>): SyncRunStart {
  return {
    async take(userId, owner, until, now) {
      const lease = await deps.leases.acquire(userId, owner, until, now);
      if (lease.kind !== 'taken') return { lease, rows: null };
      const context = await deps.settings.load(userId, now);
      return { lease, rows: { context, state: await deps.states.find(userId) } };
    },
  };
}

/**
 * `started`: the settings and state read with the lease (null: read them now); `lease`: the run's
 * (null: a user gone), given back by the run's last statement when it can be.
 */
async function runOnce(
  engine: Engine,
  userId: string,
  options: RunOptions,
  started: RunStartRows | null,
  lease: HeldLease | null,
): Promise<SyncOutcome> {
  const now = engine.clock();
  const admitted = await admit(engine, userId, options, now, started);
  if ('status' in admitted) return admitted;
  try {
    return await syncAdmitted(engine, userId, admitted, options, now, lease);
  } catch (error) {
    return handleFailure(engine, userId, error);
  }
}

async function syncAdmitted(
  engine: Engine,
  userId: string,
  { context, state, calendar, titleSalt }: Admitted,
  options: RunOptions,
  now: Date,
  lease: HeldLease | null,
): Promise<SyncOutcome> {
  const channelChanged = await ensureChannel(engine, userId, context.settings, state);
  // Another calendar chosen: the pairs' events move there first (or stay with an account gone).
  const links = await engine.links.all(userId);
  const relocated = await relocatePairs(engine, {
    userId,
    settings: context.settings,
    calendar,
    state,
    calendarAccountId: context.calendarAccountId,
    links,
    now,
  });
  const keptBefore = state?.autoplan ?? null;
  const kept = forgetPlacements(keptBefore, leftBehindTasks(links, relocated.links));
  // Hints recorded after the run's start wait for the next run, which their notice queued.
  const hints = context.hintsWaiting ? await engine.hints.completedOccurrences(userId) : [];
  const read = await readSides(engine, {
    userId,
    state,
    settings: context.settings,
    calendar,
    links: relocated.links,
    occurrencesCompleted: hints.length > 0,
    readAllTasks: relocated.readAllTasks,
    requestedSidesOnly: options.requestedSidesOnly === true,
    labelsAtStart: context.labels,
    now,
  });
  if (!channelChanged) await reopenQuietChannel(engine, userId, context.settings, state, read, now);
  // "Plan my day" gives waiting tasks their times first, so this run makes their events.
  const planned = await runAutoplan(engine, calendar, userId, {
    settings: read.settings,
    now,
    tasks: read.tasks,
    events: read.events,
    links: relocated.links,
    kept,
  });
  // Blocks forgotten with their pairs are saved even when Plan my day had nothing more to do.
  const autoplan = planned.kept ?? (kept !== keptBefore ? kept : null);
  const input = {
    settings: read.settings,
    now,
    hash: titleHasher(titleSalt),
    tasks: planned.tasks,
    events: read.events,
    completedOccurrences: new Set(hints.map((hint) => hint.taskId)),
    relabelled: read.relabelled,
  };
  const target: WriteTarget = {
    userId,
    calendar,
    calendarId: read.settings.calendarId,
    readVersions: read.readVersions,
    discardedTasks: new Set(),
  };
  const written = await planAndWrite(engine, input, relocated.links, target, state, read.holding);
  // Nothing left to write after the run's state (no hints to forget, nothing for the brake to log,
  // no renames to forget): the lease is given back in the same statement.
  const last =
    hints.length === 0 &&
    read.renames.length === 0 &&
    !engine.brakeRecord.logs(written.brake, context.problemsOpen);
  const release = last && lease ? lease : null;
  await finishRun(
    engine,
    userId,
    context,
    state,
    read,
    {
      ...engine.brakeRecord.statePatch(state, written.brake, now, { ...read, tasks: input.tasks }),
      ...otherSyncSeen(state, read.events, relocated.links, now),
      ...(autoplan && { autoplan }),
    },
    release,
  );
  release?.givenBack();
  const consumed = hints.map((hint) => hint.taskId);
  await engine.hints.consume(userId, consumed, now);
  await engine.brakeRecord.log(userId, state, written.brake, now, context.problemsOpen);
  await engine.labels.forgetLabelRenames(userId, read.renames);
  const sidesRead = BOTH_SIDES.filter((side) => read.reads[side]);
  const problems = context.problemsOpen || written.brake.held.length > 0;
  return { status: 'synced', plans: written.plans, writes: written.writes, reads: sidesRead, problems };
}

/**
 * Every write is recorded: in one statement, the read positions move on, the requests this run
 * answered are done, and what the brake decided is kept.
 */
async function finishRun(
  engine: Engine,
  userId: string,
  context: Admitted['context'],
  state: SyncState | null,
  read: SidesRead,
  brake: SyncStatePatch,
  release: HeldLease | null,
) {
  await engine.states.saveRun(
    userId,
    {
      ...brake,
      ...engine.budget.settle(read.settings.calendarProvider, engine.clock()),
      todoistToken: read.nextTokens.todoist,
      calendarToken: read.nextTokens.calendar,
      calendarId: read.settings.calendarId,
      calendarProvider: read.settings.calendarProvider,
      calendarAccountId: context.calendarAccountId,
      calendarName: context.calendarName,
      scopeHash: scopeHash(read.settings),
      lastRunAt: engine.clock(),
      backoffUntil: null,
    },
    {
      todoist: read.reads.todoist ? (state?.todoistReadsPending ?? 0) : 0,
      calendar: read.reads.calendar ? (state?.calendarReadsPending ?? 0) : 0,
    },
    engine.clock(),
    ...(release ? [{ leaseOwner: release.owner }] : []),
  );
}

/** A change no notification told of (`channelWentQuiet`): the channel went quiet, and is opened again now. */
async function reopenQuietChannel(
  engine: Engine,
  userId: string,
  settings: SyncSettings,
  state: SyncState | null,
  read: SidesRead,
  now: Date,
) {
  if (!state?.channelId || !read.calendarChangedAt) return;
  if (!channelWentQuiet({ changedAt: read.calendarChangedAt, pushHeardAt: state.pushHeardAt, now })) return;
  engine.log.info({ userId }, 'the push channel missed a change; opening it again');
  await ensureChannel(engine, userId, settings, { ...state, channelExpiresAt: new Date(0) });
}

/**
 * Push is an accelerator: when the provider refuses a channel (Graph could not reach our URL, say),
 * the run goes on and the reconcile keeps the user in sync; the next run tries the channel again.
 */
async function ensureChannel(
  engine: Engine,
  userId: string,
  settings: SyncSettings,
  state: SyncState | null,
): Promise<boolean> {
  try {
    return await engine.channels.ensure(userId, settings, state);
  } catch (error) {
    if (error instanceof ReconnectRequiredError || error instanceof RateLimitedError) throw error;
    engine.log.warn({ userId, err: error }, 'could not open a push channel; relying on the reconcile');
    return false;
  }
}
