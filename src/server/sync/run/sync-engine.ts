import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
import type { LabelRename } from '#server/domain/settings/label-identity.ts';
import type { SettingsRepository } from '#server/domain/settings/settings.repository.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { SyncProblemCode } from '#shared/api/sync.schema.ts';
import {
  type CalendarEvent,
  CalendarGoneError,
  type CalendarTarget,
  EventChangedError,
  type EventWrite,
  SyncTokenExpiredError,
} from '../calendar-target.port.ts';
import type { SyncChannels } from '../inbound/sync-channels.ts';
import { titleHasher } from '../plan/event-title.ts';
import type { BudgetProvider, BudgetRule } from '../plan/provider-budget.ts';
import { readPlan } from '../plan/read-plan.ts';
import { applyBrake, type BrakeThresholds, DEFAULT_BRAKE, tasksToRestore } from '../plan/removal-brake.ts';
import { withFollowedLabels, withRenamedTaskLabels } from '../plan/settings-labels.ts';
import { deletedEvent, deletedTask } from '../plan/snapshots.ts';
import { appearanceHash, type LinkPlan, planSync } from '../plan/sync-planner.ts';
import { scopeHash } from '../plan/sync-scope.ts';
import { RateLimitedError } from '../rate-limited-error.ts';
import type { NewActivity, SyncActivityRepository } from '../store/sync-activity.repository.ts';
import type { SyncHintRepository } from '../store/sync-hint.repository.ts';
import type { SyncLinkRepository } from '../store/sync-link.repository.ts';
import type { SyncRunLeaseRepository } from '../store/sync-run-lease.repository.ts';
import type { SyncSettingsReader } from '../store/sync-settings.repository.ts';
import type { SyncState, SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncLink } from '../sync-link.ts';
import type { SyncSettings } from '../sync-settings.ts';
import { BOTH_SIDES, heldCount, type SyncSide } from '../sync-sides.ts';
import type { TaskCommand, TaskSnapshot, TaskSource } from '../task-source.port.ts';
import type { WithToken } from '../with-token.ts';
import { createBrakeRecord } from './brake-record.ts';
import { relocatePairs } from './calendar-switch.ts';
import { createRunBudget } from './run-budget.ts';
import { createRunLease } from './run-lease.ts';

export type SyncEngineDeps = {
  settings: SyncSettingsReader;
  /** Where the Todoist labels a run reads go: settings follow their labels by id. */
  labels: Pick<SettingsRepository, 'applyLabelChanges' | 'forgetLabelRenames'>;
  links: SyncLinkRepository;
  states: SyncStateRepository;
  activity: SyncActivityRepository;
  hints: SyncHintRepository;
  channels: SyncChannels;
  tasks: TaskSource;
  calendars: Record<'google' | 'microsoft', CalendarTarget | null>;
  withToken: WithToken;
  clock: Clock;
  log: Logger;
  /** One run per user at a time, across processes. */
  leases: SyncRunLeaseRepository;
  /** The provider budgets of a user's runs (default PROVIDER_BUDGETS). */
  budgets?: Record<BudgetProvider, BudgetRule>;
  /** The safety brake's thresholds (default DEFAULT_BRAKE). */
  brake?: BrakeThresholds;
};

export type SyncOutcome =
  | { status: 'synced'; plans: number; writes: number; reads: SyncSide[] }
  | { status: 'skipped'; reason: string }
  | { status: 'blocked'; problem: SyncProblemCode }
  /** `anotherRun`: another run of the user held the lease, so this one did not start at all. */
  | { status: 'retry-later'; afterMs: number; anotherRun?: true };

const TODOIST_BATCH = 100;

/** A key that is the same on every attempt at one create: the link and which of its events it is. */
export const createKey = (linkId: string, generation: number) =>
  createHash('sha256').update(`${linkId}:${generation}`).digest('hex').slice(0, 32);

const uuidOf = (key: string) =>
  `${key.slice(0, 8)}-${key.slice(8, 12)}-4${key.slice(13, 16)}-8${key.slice(17, 20)}-${key.slice(20, 32)}`;

export type RunOptions = {
  /** The queue's runs wait while the user's provider budget is spent (run-budget.ts); a direct call runs now. */
  spaced?: boolean;
  /**
   * Read only the sides a notification or request asked for (the queue's runs); a direct call reads
   * both. See `readPlan`.
   */
  requestedSidesOnly?: boolean;
  /** Told when the run has taken its user's lease ('start') and just before it gives it back ('end'). */
  held?: (phase: 'start' | 'end') => void;
};

/**
 * One sync run for one user: read incrementally, plan, write, then move the read positions on. The
 * positions move only after every write is recorded, so a run that dies anywhere is repeated from the
 * same changes; creates are keyed (see `createKey`), so the repeat makes nothing twice.
 */
export function createSyncEngine(deps: SyncEngineDeps) {
  const thresholds = deps.brake ?? DEFAULT_BRAKE;
  const brakeRecord = createBrakeRecord({ ...deps, thresholds });
  const budget = createRunBudget({ ...deps, ...(deps.budgets ? { rules: deps.budgets } : {}) });
  const withToken = budget.withToken;
  const lease = createRunLease(deps);
  /**
   * Every event update names the version the run planned from: the one it read, or for an event it did
   * not read (a run reading one side only, or an event unchanged since the last read), the link's last
   * known one. When the user changed that event meanwhile (after the read, or with its notification still
   * on the way), the provider refuses and the run is done again reading both sides, so the user's change
   * is planned with, never overwritten.
   */
  function run(userId: string, options: RunOptions = {}): Promise<SyncOutcome> {
    const work = () =>
      budget.spend(userId, async () => {
        try {
          return await runOnce(userId, options);
        } catch (error) {
          if (!(error instanceof EventChangedError)) throw error;
          deps.log.info(
            { userId },
            'an event changed since the run planned its update; reading both sides again',
          );
          return runOnce(userId, { ...options, requestedSidesOnly: false });
        }
      });
    return lease.holding<SyncOutcome>(
      userId,
      work,
      (afterMs) => ({ status: 'retry-later', afterMs, anotherRun: true }),
      options.held,
    );
  }

  async function runOnce(userId: string, options: RunOptions): Promise<SyncOutcome> {
    const now = deps.clock();
    const context = await deps.settings.load(userId, now);
    if (!context.runnable) {
      if (context.block === 'not-entitled') await deps.activity.raise(userId, 'subscription-ended', now);
      // Switched off, unpaid or disconnected: no more notifications until sync may run again.
      if (context.block !== 'no-user') await deps.channels.stop(userId);
      return { status: 'skipped', reason: context.block };
    }
    const state = await deps.states.find(userId);
    if (state?.backoffUntil && state.backoffUntil > now) {
      return { status: 'retry-later', afterMs: state.backoffUntil.getTime() - now.getTime() };
    }
    // A user who calls the providers faster than their per-user limits allow waits for the budget to
    // refill; changes meanwhile are read by that run together.
    const wait = options.spaced ? budget.waitMs(state, now) : 0;
    if (wait > 0) return { status: 'retry-later', afterMs: wait };
    let settings = { ...context.settings };
    let titleSalt = state?.titleSalt;
    if (!titleSalt) {
      titleSalt = randomBytes(16).toString('base64url');
      await deps.states.save(userId, { titleSalt }, now);
    }
    const calendar = deps.calendars[settings.calendarProvider];
    if (!calendar) return { status: 'skipped', reason: 'calendar-not-configured' };

    try {
      await ensureChannel(userId, settings, state);
      // Another calendar chosen: the pairs' events move there first (or stay with an account gone).
      const relocated = await relocatePairs(
        { ...deps, withToken },
        {
          userId,
          settings,
          calendar,
          state,
          calendarAccountId: context.calendarAccountId,
          links: await deps.links.all(userId),
          now,
        },
      );
      const links = relocated.links;
      const hints = await deps.hints.completedOccurrences(userId);
      const appearance = appearanceHash(settings);
      // Held removals are planned again from full reads until the user chooses: what is held is always
      // what both sides say now (a label restored meanwhile leaves nothing to hold).
      const holding = state !== null && heldCount(state) > 0;
      // Settings of what is in scope changed (a timebox added or removed, task durations, the colour or
      // category filter): everything already there is judged again, so both sides are read in full. A
      // state from before fingerprints were kept has none: it is recorded, not taken for a change.
      const scopeChanged = !!state?.scopeHash && state.scopeHash !== scopeHash(settings);
      const readAll = holding || scopeChanged;
      // New settings restyle our open events; their titles come from the tasks, so read every task once.
      const needsAllTasks =
        relocated.readAllTasks ||
        readAll ||
        links.some(
          (link) =>
            link.origin === 'task' && !link.completed && link.eventId && link.appearanceHash !== appearance,
        );
      const sameCalendar =
        state?.calendarId === settings.calendarId && state.calendarProvider === settings.calendarProvider;
      const reads = readPlan({
        state,
        sameCalendar,
        readAll,
        needsAllTasks,
        unfinishedCreates: links.some((link) => link.pendingKey !== null),
        completedOccurrences: hints.length > 0,
        requestedSidesOnly: options.requestedSidesOnly === true,
      });

      const taskRead = reads.todoist
        ? await withToken(userId, 'todoist', (token) =>
            deps.tasks.changes(token, needsAllTasks ? null : (state?.todoistToken ?? null)),
          )
        : unread(state?.todoistToken);
      if (taskRead.timeZone) settings.timeZone = taskRead.timeZone;
      // Renames the settings followed (now, by the dashboard, or in a run that failed later) and no run
      // has carried onto the tasks yet: a task with a label's old name is matched by its new one.
      let renames: LabelRename[] = [];
      if (reads.todoist) {
        const applied = await deps.labels.applyLabelChanges(
          userId,
          taskRead.labels.map(({ order, isDeleted, ...label }) => ({
            ...label,
            item_order: order,
            deleted: isDeleted,
          })),
          taskRead.full,
          now,
        );
        settings = withFollowedLabels(settings, applied);
        renames = applied.renames;
      }
      const calendarRead = reads.calendar
        ? await withToken(userId, 'calendar', async (token) => {
            const since = sameCalendar && !readAll ? (state?.calendarToken ?? null) : null;
            try {
              return await calendar.changes(token, settings.calendarId, since);
            } catch (error) {
              if (!(error instanceof SyncTokenExpiredError) || since === null) throw error;
              deps.log.info({ userId }, 'calendar sync token expired; reading the calendar in full');
              return calendar.changes(token, settings.calendarId, null);
            }
          })
        : unread(state?.calendarToken);
      // The version each update names: as read now, else as the link last saw it.
      const readVersions = new Map(calendarRead.events.map((event) => [event.id, event.version]));

      const { tasks, relabelled } = withRenamedTaskLabels(
        await completeTaskRead(userId, links, taskRead.tasks, taskRead.full),
        renames,
      );
      const events = completeEventRead(links, calendarRead.events, calendarRead.full, settings.calendarId);
      const input = {
        settings,
        now,
        hash: titleHasher(titleSalt),
        tasks,
        events,
        completedOccurrences: new Set(hints.map((hint) => hint.taskId)),
        relabelled,
      };
      const inCalendar = (all: SyncLink[]) => all.filter((link) => link.calendarId === settings.calendarId);
      // A task a crashed run created from an event is in this read, but not yet linked: finish those
      // creates first (same command uuid, so Todoist answers with that task), or it would look new.
      const unfinished = inCalendar(links).filter((link) => link.pendingKey && link.taskId === null);
      let writes = 0;
      let current = links;
      const discardedTasks = new Set<string>();
      if (unfinished.length > 0) {
        const ids = new Set(unfinished.map((link) => link.eventId));
        const resumed = planSync({
          ...input,
          links: unfinished,
          tasks: [],
          events: events.filter((e) => ids.has(e.id)),
        });
        writes += await execute(userId, resumed, calendar, settings.calendarId, readVersions, discardedTasks);
        current = await deps.links.all(userId);
      }
      // A task a resumed create made only to delete it is not a new task of the user's.
      const plans = planSync({
        ...input,
        tasks: input.tasks.filter((task) => !discardedTasks.has(task.id)),
        links: inCalendar(current),
      });
      const brake = applyBrake({
        plans,
        linkedPairs: inCalendar(current).length,
        recentRemovals: brakeRecord.removalsInWindow(state, now),
        holding,
        choice: holding ? (state?.brakeChoice ?? null) : null,
        thresholds,
      });
      writes += await execute(userId, brake.run, calendar, settings.calendarId, readVersions, discardedTasks);
      const restore = tasksToRestore(brake);
      if (restore.size > 0) {
        const restored = planSync({
          ...input,
          tasks: input.tasks.filter((task) => restore.has(task.id)),
          events: [],
          links: [],
        });
        writes += await execute(
          userId,
          restored,
          calendar,
          settings.calendarId,
          readVersions,
          discardedTasks,
        );
      }

      await deps.states.save(
        userId,
        {
          todoistToken: taskRead.nextToken,
          calendarToken: calendarRead.nextToken,
          calendarId: settings.calendarId,
          calendarProvider: settings.calendarProvider,
          calendarAccountId: context.calendarAccountId,
          calendarName: context.calendarName,
          scopeHash: scopeHash(settings),
          lastRunAt: deps.clock(),
          backoffUntil: null,
        },
        deps.clock(),
      );
      await deps.states.readsDone(userId, {
        todoist: reads.todoist ? (state?.todoistReadsPending ?? 0) : 0,
        calendar: reads.calendar ? (state?.calendarReadsPending ?? 0) : 0,
      });
      await deps.hints.consume(
        userId,
        hints.map((hint) => hint.taskId),
        now,
      );
      await brakeRecord.save(userId, state, brake, now);
      await deps.labels.forgetLabelRenames(userId, renames);
      const sidesRead = BOTH_SIDES.filter((side) => reads[side]);
      return { status: 'synced', plans: plans.length, writes, reads: sidesRead };
    } catch (error) {
      return handleFailure(userId, error);
    }
  }

  /**
   * Push is an accelerator: when the provider refuses a channel (Graph could not reach our URL, say),
   * the run goes on and the reconcile keeps the user in sync; the next run tries the channel again.
   */
  async function ensureChannel(userId: string, settings: SyncSettings, state: SyncState | null) {
    try {
      await deps.channels.ensure(userId, settings, state);
    } catch (error) {
      if (error instanceof ReconnectRequiredError || error instanceof RateLimitedError) throw error;
      deps.log.warn({ userId, err: error }, 'could not open a push channel; relying on the reconcile');
    }
  }

  async function handleFailure(userId: string, error: unknown): Promise<SyncOutcome> {
    const now = deps.clock();
    if (error instanceof ReconnectRequiredError) {
      const problem = error.kind === 'todoist' ? 'reconnect-todoist' : 'reconnect-calendar';
      await deps.activity.raise(userId, problem, now);
      return { status: 'blocked', problem };
    }
    if (error instanceof CalendarGoneError) {
      await deps.activity.raise(userId, 'calendar-missing', now);
      return { status: 'blocked', problem: 'calendar-missing' };
    }
    if (error instanceof RateLimitedError) {
      const afterMs = Math.max(error.retryAfterMs ?? 60_000, 1000);
      await deps.states.save(userId, { backoffUntil: new Date(now.getTime() + afterMs) }, now);
      await deps.activity.raise(userId, 'quota-reached', now);
      return { status: 'retry-later', afterMs };
    }
    throw error;
  }

  /**
   * A full Todoist read lists only open tasks: a linked task missing from it was completed or deleted,
   * and only reading it tells which. A pending create also needs its task.
   */
  async function completeTaskRead(
    userId: string,
    links: SyncLink[],
    read: TaskSnapshot[],
    full: boolean,
  ): Promise<TaskSnapshot[]> {
    const seen = new Set(read.map((task) => task.id));
    const missing = links.filter(
      (link) =>
        link.taskId &&
        !seen.has(link.taskId) &&
        ((full && !link.completed) || (link.pendingKey && !link.eventId)),
    );
    if (missing.length === 0) return read;
    const extra = await withToken(userId, 'todoist', (token) =>
      Promise.all(
        missing.map(async (link) => {
          const id = link.taskId as string;
          return (await deps.tasks.task(token, id)) ?? deletedTask(id);
        }),
      ),
    );
    return [...read, ...extra];
  }

  /** A full calendar read lists every live event: a linked event missing from it is gone. */
  function completeEventRead(
    links: SyncLink[],
    read: CalendarEvent[],
    full: boolean,
    calendarId: string,
  ): CalendarEvent[] {
    if (!full) return read;
    const seen = new Set(read.map((event) => event.id));
    const gone = links
      .filter((link) => link.calendarId === calendarId && link.eventId && !seen.has(link.eventId))
      .map((link) => deletedEvent(link.eventId as string));
    return [...read, ...gone];
  }

  async function execute(
    userId: string,
    plans: LinkPlan[],
    calendar: CalendarTarget,
    calendarId: string,
    readVersions: ReadonlyMap<string, string>,
    discardedTasks: Set<string>,
  ) {
    let writes = 0;
    const activity: NewActivity[] = [];
    const taskCommands: { plan: LinkPlan; linkId: string; command: TaskCommand }[] = [];
    const results = new Map<
      LinkPlan,
      { linkId: string; eventId: string | null; eventVersion: string | null }
    >();

    for (const plan of plans) {
      // A create a failed run left unfinished was first sent with the look the settings had then.
      const firstLook = plan.link?.pendingKey ? plan.link.appearanceHash : null;
      const { linkId, key: pendingKey } = await prepare(userId, plan);
      let eventId = plan.link?.eventId ?? plan.next?.eventId ?? null;
      let eventVersion = plan.next?.eventVersion ?? null;
      try {
        for (const action of plan.events) {
          writes += 1;
          if (action.action === 'remove') {
            await withToken(userId, 'calendar', (token) =>
              calendar.remove(token, calendarId, action.eventId),
            );
            if (action.eventId === eventId) eventId = null;
          } else if (action.action === 'update') {
            const ifVersion = readVersions.get(action.eventId) ?? plan.link?.eventVersion ?? undefined;
            const updated = await withToken(userId, 'calendar', (token) =>
              calendar.update(token, calendarId, action.eventId, action.write, ifVersion),
            );
            if (updated.id === eventId) eventVersion = updated.version;
          } else {
            const key = pendingKey ?? createKey(linkId, plan.next?.generation ?? 0);
            let created = await withToken(userId, 'calendar', (token) =>
              calendar.create(token, calendarId, key, action.write),
            );
            if (action.discard) {
              await withToken(userId, 'calendar', (token) => calendar.remove(token, calendarId, created.id));
              writes += 1;
              continue;
            }
            // A repeated create answers with the event the first attempt made, as it was then; the
            // task (a new title, time or length) or the settings (colour, reminder, link to the task)
            // may have changed since: the event follows them now.
            const lookChanged = firstLook !== null && firstLook !== plan.next?.appearanceHash;
            if (lookChanged || !asWritten(created, action.write)) {
              const made = created;
              created = await withToken(userId, 'calendar', (token) =>
                calendar.update(token, calendarId, made.id, action.write),
              );
              writes += 1;
            }
            eventId = created.id;
            eventVersion = created.version;
          }
        }
      } catch (error) {
        if (!isPermanent(error)) throw error;
        // The event changed under us (deleted meanwhile, say): the next read brings that change.
        deps.log.warn({ userId, linkId, err: error }, 'calendar write refused; left for the next run');
        activity.push({
          direction: 'todoist-to-calendar',
          action: 'skipped',
          taskId: plan.next?.taskId ?? null,
          eventId,
          detail: 'refused',
        });
        continue;
      }
      results.set(plan, { linkId, eventId, eventVersion });
      if (plan.task) {
        const key =
          pendingKey && plan.task.action === 'create' ? pendingKey : randomUUID().replaceAll('-', '');
        taskCommands.push({ plan, linkId, command: toCommand(plan, key) });
      }
    }

    const taskIds = new Map<LinkPlan, string | null>();
    const refused = new Set<LinkPlan>();

    for (let index = 0; index < taskCommands.length; index += TODOIST_BATCH) {
      const batch = taskCommands.slice(index, index + TODOIST_BATCH);
      const result = await withToken(userId, 'todoist', (token) =>
        deps.tasks.apply(
          token,
          batch.map((entry) => entry.command),
        ),
      );
      writes += 1;
      for (const entry of batch) {
        if (result.failed[entry.command.uuid]) {
          deps.log.warn({ userId, tag: result.failed[entry.command.uuid] }, 'Todoist refused a command');
          refused.add(entry.plan);
        }
        if (entry.command.kind === 'add')
          taskIds.set(entry.plan, result.idsByTempId[entry.command.tempId] ?? null);
        const made = taskIds.get(entry.plan);
        if (entry.plan.task?.action === 'create' && entry.plan.task.discard && made) discardedTasks.add(made);
      }
    }
    const toDelete = [...discardedTasks].filter((id) =>
      taskCommands.some((entry) => taskIds.get(entry.plan) === id),
    );
    if (toDelete.length > 0) {
      await withToken(userId, 'todoist', (token) =>
        deps.tasks.apply(
          token,
          toDelete.map((id) => ({ kind: 'delete', uuid: randomUUID(), id })),
        ),
      );
      writes += 1;
    }

    for (const plan of plans) {
      const result = results.get(plan);
      if (!result) continue;
      const ids = { taskId: plan.link?.taskId ?? plan.next?.taskId ?? null };
      if (taskIds.has(plan)) ids.taskId = taskIds.get(plan) ?? null;
      await record(
        userId,
        plan,
        result.linkId,
        { ...ids, eventId: result.eventId, eventVersion: result.eventVersion },
        refused.has(plan),
      );
      for (const entry of plan.activity) {
        activity.push({
          ...entry,
          taskId: ids.taskId,
          eventId: result.eventId ?? plan.link?.eventId ?? null,
        });
      }
    }
    await deps.activity.add(userId, activity, deps.clock());
    return writes;
  }

  /**
   * Writes the intent of a create before the provider sees it: the link (new, or the plan's) with the
   * create's key, the same on every attempt (`createKey`: a task made from an event is generation -1).
   * Answers the link id and the key of the create in flight (null: nothing is being created).
   */
  async function prepare(userId: string, plan: LinkPlan): Promise<{ linkId: string; key: string | null }> {
    const creates =
      plan.events.some((action) => action.action === 'create') || plan.task?.action === 'create';
    const keyFor = (linkId: string, generation: number) =>
      createKey(linkId, plan.task?.action === 'create' ? -1 : generation);
    if (plan.link) {
      if (!creates || plan.link.pendingKey || !plan.next)
        return { linkId: plan.link.id, key: plan.link.pendingKey };
      const key = keyFor(plan.link.id, plan.next.generation);
      await deps.links.save(
        userId,
        plan.link.id,
        { pendingKey: key, generation: plan.next.generation },
        deps.clock(),
      );
      return { linkId: plan.link.id, key };
    }
    if (!plan.next) return { linkId: randomUUID(), key: null };
    const linkId = randomUUID();
    const key = keyFor(linkId, plan.next.generation);
    await deps.links.insertPending(userId, { ...plan.next, id: linkId, pendingKey: key });
    return { linkId, key };
  }

  async function record(
    userId: string,
    plan: LinkPlan,
    linkId: string,
    ids: { taskId: string | null; eventId: string | null; eventVersion: string | null },
    refused: boolean,
  ): Promise<void> {
    const now = deps.clock();
    // The pair is over, or its task never came to be (Todoist refused the add).
    const over = !plan.next || !ids.taskId || (refused && plan.task?.action === 'create');
    if (over || !plan.next) await deps.links.remove(userId, linkId);
    else await deps.links.save(userId, linkId, { ...plan.next, ...ids, pendingKey: null }, now);
  }

  return { run };
}

function toCommand(plan: LinkPlan, key: string): TaskCommand {
  const task = plan.task;
  if (!task) throw new Error('no task action');
  const uuid = uuidOf(key);
  if (task.action === 'create') {
    return {
      kind: 'add',
      uuid,
      tempId: `tmp-${key}`,
      content: task.content,
      due: task.due,
      labels: task.labels,
      duration: task.duration,
    };
  }
  if (task.action === 'delete') return { kind: 'delete', uuid, id: task.taskId };
  const { action: _action, taskId, ...fields } = task;
  return { kind: 'update', uuid, id: taskId, ...fields };
}

/** A write the provider refused for good (4xx other than auth and rate limits). */
function isPermanent(error: unknown): boolean {
  const status = (error as { status?: number } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 429;
}

/** The event has the title and time of the write (a create's answer may be an earlier attempt's event). */
function asWritten(event: CalendarEvent, write: EventWrite): boolean {
  return (
    event.title === write.title &&
    event.start?.getTime() === write.start.getTime() &&
    event.end?.getTime() === write.end.getTime()
  );
}

/** A side this run does not read: no changes, and its read position stays where it is. */
function unread(token: string | null | undefined) {
  return { tasks: [], labels: [], events: [], full: false, nextToken: token ?? null, timeZone: null };
}
