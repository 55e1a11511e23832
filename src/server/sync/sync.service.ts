import type { Clock } from '#server/domain/shared/clock.port.ts';
import { StateConflictError } from '#server/domain/shared/domain-errors.ts';
import {
  type BrakeChoice,
  type HeldItem,
  REFUSED_LISTED,
  type SyncActivity,
} from '#shared/api/sync.schema.ts';
import type { EventVersionSeen, NoticeOutcome, NotificationIntake } from './inbound/notification-intake.ts';
import type { SyncChannels } from './inbound/sync-channels.ts';
import { unplacedByDay } from './plan/autoplan/unplaced-days.ts';
import { refusalRetryAt } from './plan/refusal-backoff.ts';
import { pairKey } from './plan/removal-brake.ts';
import type { AppBudget } from './run/app-budget.ts';
import type { SyncActivityRepository } from './store/sync-activity.repository.ts';
import type { SyncLinkRepository } from './store/sync-link.repository.ts';
import type { SyncStateRepository } from './store/sync-state.repository.ts';
import { BOTH_SIDES, heldCount } from './sync-sides.ts';
import type { SyncState } from './sync-state.ts';

export type WebhookOutcome = NoticeOutcome;

export type SyncService = ReturnType<typeof createSyncService>;

export type SyncServiceDeps = {
  intake: NotificationIntake;
  channels: Pick<SyncChannels, 'stop'>;
  states: Pick<SyncStateRepository, 'find' | 'requestReads' | 'save' | 'saveHeldChoice'>;
  activity: SyncActivityRepository;
  links: Pick<SyncLinkRepository, 'refused'>;
  /** When the app-wide budget of a calendar provider holds its runs (run/app-budget.ts). */
  appBudget: Pick<AppBudget, 'heldUntil'>;
  /** Checks a Todoist webhook's signature and reads it (providers/todoist/todoist-webhook.ts). */
  readTodoistWebhook: (
    rawBody: Buffer,
    signature: string | undefined,
  ) =>
    | { kind: 'rejected' | 'ignored' }
    | { kind: 'event'; todoistUserId: string; completedOccurrence: string | null };
  /** Reads a Graph notification body into (subscription id, clientState) pairs; null when it is not one. */
  parseGraphNotifications: (
    body: string,
  ) => { subscriptionId: string; clientState: string | null; changed?: EventVersionSeen }[] | null;
  clock: Clock;
};

/** A calendar push or a Graph lifecycle notice (see SyncNotice): channel id and secret must be ours. */
async function calendarNotice(
  intake: NotificationIntake,
  channelId: string | undefined,
  secret: string | undefined,
  lifecycle: boolean,
  changed?: EventVersionSeen,
): Promise<WebhookOutcome> {
  if (!channelId || !secret) return 'rejected';
  return intake.submit({
    source: 'calendar',
    channelId,
    secret,
    lifecycle,
    ...(changed && { changed }),
  });
}

/**
 * What the web process does for sync: check notifications and hand them to the intake, which records
 * them and queues runs (nothing else, so they are answered fast), and report activity. The runs
 * themselves happen in a worker.
 */
/** Another sync seen in the calendar, until the user has read the note. */
const otherSyncNote = (seen: SyncState['otherSync']): SyncActivity['otherSync'] =>
  seen && !seen.dismissed ? { tool: seen.tool, seenAt: seen.seenAt } : null;

/** The days "Plan my day" could not fit every task into, as the last run left them. */
const unplacedNote = (kept: SyncState['autoplan']): SyncActivity['autoplanUnplaced'] =>
  unplacedByDay(kept?.unplaced ?? []).map((day) => ({
    date: day.date,
    tasks: day.taskIds.length,
    minutes: day.minutes,
  }));

/** Removals the safety brake holds back (the items as last logged), with the user's choices if made. */
async function heldNote(
  deps: SyncServiceDeps,
  userId: string,
  state: SyncState | null,
): Promise<SyncActivity['heldRemovals']> {
  if (!state || heldCount(state) === 0 || !state.heldSince) return null;
  const chosen = new Map((state.brakeItems ?? []).map((item) => [pairKey(item), item.choice]));
  const items = await deps.activity.lastHeld(userId);
  return {
    events: state.heldEvents,
    tasks: state.heldTasks,
    since: state.heldSince.toISOString(),
    items: items.map(({ taskId, eventId, direction }) => ({
      taskId,
      eventId,
      removes: direction === 'todoist-to-calendar' ? 'event' : 'task',
      choice: chosen.get(pairKey({ taskId, eventId })) ?? null,
    })),
    cause: state.heldCause,
    choice: state.brakeChoice ?? null,
  };
}

/**
 * The held pairs a choice names, each by the ids it gives (its task id, its event id, or both); an
 * item that names none of the pairs last held is refused, and nothing is saved.
 */
async function heldPairsNamed(deps: SyncServiceDeps, userId: string, items: readonly HeldItem[]) {
  const held = await deps.activity.lastHeld(userId);
  const named = (item: HeldItem) =>
    held.find(
      (pair) =>
        (item.taskId === null || item.taskId === pair.taskId) &&
        (item.eventId === null || item.eventId === pair.eventId),
    );
  const pairs = items.map(named);
  if (pairs.some((pair) => pair === undefined)) {
    throw new StateConflictError(
      items.length === 1
        ? 'This item is not held back any more, so your choice was not saved.'
        : 'Some of these items are not held back any more, so your choice was not saved.',
    );
  }
  return pairs.flatMap((pair) => (pair ? [{ taskId: pair.taskId, eventId: pair.eventId }] : []));
}

/**
 * The writes providers refused for good, as their pairs keep them, with when each is tried again: Todoist
 * refused a task's, the calendar's provider an event's.
 */
function refusedNote(
  { total, pairs }: Awaited<ReturnType<SyncLinkRepository['refused']>>,
  state: SyncState | null,
): SyncActivity['refusedWrites'] {
  if (total === 0) return null;
  const calendar = state?.calendarProvider ?? null;
  return {
    total,
    items: pairs.map((pair) => ({
      taskId: pair.taskId,
      eventId: pair.eventId,
      write: pair.refusedWrite,
      provider: pair.refusedWrite.startsWith('task') ? 'todoist' : calendar,
      status: pair.refusedStatus,
      reason: pair.refusedReason,
      refusedAt: pair.refusedAt.toISOString(),
      refusals: Math.max(1, pair.refusedCount),
      retryAt: (refusalRetryAt(pair) ?? pair.refusedAt).toISOString(),
    })),
  };
}

/** What the dashboard shows of the user's sync: provider ids and counts, never a task's or event's text. */
async function readActivity(deps: SyncServiceDeps, userId: string, limit = 30): Promise<SyncActivity> {
  const [entries, problems, state, refused] = await Promise.all([
    deps.activity.recent(userId, limit),
    deps.activity.problems(userId),
    deps.states.find(userId),
    deps.links.refused(userId, REFUSED_LISTED),
  ]);
  const provider = state?.calendarProvider;
  const [busyUntil, heldRemovals] = await Promise.all([
    provider ? deps.appBudget.heldUntil(provider, deps.clock()) : null,
    heldNote(deps, userId, state),
  ]);
  return {
    entries,
    problems,
    lastRunAt: state?.lastRunAt?.toISOString() ?? null,
    heldRemovals,
    leftBehind: state?.leftBehind ? { why: 'disconnected', ...state.leftBehind } : null,
    otherSync: otherSyncNote(state?.otherSync ?? null),
    autoplanUnplaced: unplacedNote(state?.autoplan ?? null),
    providerBusy: provider && busyUntil ? { provider, until: busyUntil.toISOString() } : null,
    refusedWrites: refusedNote(refused, state),
  };
}

export function createSyncService(deps: SyncServiceDeps) {
  const activity = (userId: string, limit?: number) => readActivity(deps, userId, limit);

  return {
    /** Anything but a notification (a setting, the switch, a payment): the next run reads both sides. */
    async request(userId: string): Promise<void> {
      await deps.intake.submit({ source: 'app', userId });
    },

    /** The reconcile's visit: both sides read for every listed user, lost notifications or not. */
    requestReadsOfAll: (userIds: readonly string[]) =>
      deps.states.requestReads(userIds, BOTH_SIDES, deps.clock()),

    /** Todoist webhook: signed by Todoist, then handed to the intake with the account it names. */
    async todoistWebhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
      const hook = deps.readTodoistWebhook(rawBody, signature);
      if (hook.kind !== 'event') return hook.kind;
      return deps.intake.submit({
        source: 'todoist',
        todoistUserId: hook.todoistUserId,
        completedOccurrence: hook.completedOccurrence,
      });
    },

    calendarPush: (channelId: string | undefined, secret: string | undefined) =>
      calendarNotice(deps.intake, channelId, secret, false),
    calendarLifecycle: (channelId: string | undefined, secret: string | undefined) =>
      calendarNotice(deps.intake, channelId, secret, true),

    /**
     * Graph posts change or lifecycle notifications, possibly several per body. Any one carrying an id
     * no provider sends makes the answer malformed, and any one we cannot verify a refusal; the verified
     * ones are queued all the same.
     */
    async graphNotifications(body: string, lifecycle: boolean): Promise<WebhookOutcome> {
      const notifications = deps.parseGraphNotifications(body);
      if (!notifications) return 'malformed';
      const outcomes = await Promise.all(
        notifications.map(({ subscriptionId, clientState, changed }) =>
          calendarNotice(deps.intake, subscriptionId, clientState ?? undefined, lifecycle, changed),
        ),
      );
      if (outcomes.includes('malformed')) return 'malformed';
      return outcomes.includes('rejected') ? 'rejected' : 'queued';
    },

    activity,

    /** The user's runs failed several times in a row on an error of ours: a problem until one goes through. */
    async runsKeepFailing(userId: string): Promise<void> {
      await deps.activity.raise(userId, 'sync-failing', deps.clock());
    },

    /** The user has read where events were left behind by a switch of account or provider. */
    async dismissLeftBehind(userId: string): Promise<SyncActivity> {
      await deps.states.save(userId, { leftBehind: null }, deps.clock());
      return activity(userId);
    },

    /** The user has read the note on another sync: it is not shown again for that sync. */
    async dismissOtherSync(userId: string): Promise<SyncActivity> {
      const state = await deps.states.find(userId);
      if (state?.otherSync && !state.otherSync.dismissed) {
        await deps.states.save(userId, { otherSync: { ...state.otherSync, dismissed: true } }, deps.clock());
      }
      return activity(userId);
    },

    /**
     * The user's choice on the removals the safety brake held back, for every one still undecided or
     * (`items`) for the ones named: saved, and carried out by the run it queues (which reads both sides
     * again, so what is removed is what both sides say then).
     */
    async chooseHeld(
      userId: string,
      choice: BrakeChoice,
      items?: readonly HeldItem[],
    ): Promise<SyncActivity> {
      const state = await deps.states.find(userId);
      const nothingHeld = () => new StateConflictError('Nothing is held back.');
      if (!state || heldCount(state) === 0 || !state.heldSince) throw nothingHeld();
      const held =
        items === undefined
          ? { all: choice }
          : { items: (await heldPairsNamed(deps, userId, items)).map((pair) => ({ ...pair, choice })) };
      // The brake may have ended since it was read (a run found nothing left to hold).
      if (!(await deps.states.saveHeldChoice(userId, state.heldSince, held, deps.clock())))
        throw nothingHeld();
      await deps.intake.submit({ source: 'app', userId });
      return activity(userId);
    },

    /** Sync switched off or an integration removed: no more notifications for this user. */
    stopChannels: (userId: string) => deps.channels.stop(userId),
  };
}
