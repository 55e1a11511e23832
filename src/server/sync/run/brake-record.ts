import { SYNC_PROBLEMS } from '#shared/api/sync.schema.ts';
import { heldCause } from '../plan/held-cause.ts';
import type { LinkPlan } from '../plan/link-plan.ts';
import { type BrakeDecision, type BrakeThresholds, isRemoval } from '../plan/removal-brake.ts';
import type { NewActivity, SyncActivityRepository } from '../store/sync-activity.repository.ts';
import type { SyncStatePatch } from '../store/sync-state.repository.ts';
import { heldCount } from '../sync-sides.ts';
import type { SyncState } from '../sync-state.ts';
import type { TaskSnapshot } from '../task-source.port.ts';

/**
 * What the safety brake decided in a run, kept for the next run, the dashboard and the activity (ids
 * only): removals held (a problem for the user to decide), released or kept; removals carried out
 * count in the window (see `removal-brake.ts`).
 */
export function createBrakeRecord(deps: {
  activity: Pick<SyncActivityRepository, 'add' | 'clear' | 'raise'>;
  thresholds: BrakeThresholds;
}) {
  /** Removals carried out within the brake's window before this run. */
  function removalsInWindow(state: SyncState | null, now: Date): number {
    const start = state?.removalWindowStart;
    return start && now.getTime() - start.getTime() < deps.thresholds.windowMs
      ? (state?.removalWindowCount ?? 0)
      : 0;
  }

  /** The user's choice this run carried out (a choice made while it was under way waits for the next). */
  const chosenIn = (state: SyncState | null) =>
    state && heldCount(state) > 0 && state.brakeChoice ? state.brakeChoice : null;

  /**
   * What the brake decided, for the state the run saves at its end; the cause of held removals is the
   * one seen when the brake tripped (later runs read the same removals again, not their cause).
   */
  function statePatch(
    state: SyncState | null,
    brake: BrakeDecision,
    now: Date,
    read: { tasks: readonly TaskSnapshot[]; deletedLabels: ReadonlySet<string> },
  ): SyncStatePatch {
    const held = brake.held.length;
    const holding = state?.heldSince && heldCount(state) > 0;
    const heldEvents = brake.held.filter((plan) => plan.events.length > 0).length;
    const chosen = chosenIn(state);
    // Removals the user released do not count against the next ones.
    const carriedOut = chosen === 'remove' ? 0 : brake.run.filter(isRemoval).length;
    const inWindow = removalsInWindow(state, now);
    return {
      heldEvents,
      heldTasks: held - heldEvents,
      heldSince: held > 0 ? (state?.heldSince ?? now) : null,
      heldCause:
        held === 0 ? null : holding ? state.heldCause : heldCause(brake.held, read.tasks, read.deletedLabels),
      ...(chosen ? { brakeChoice: null } : {}),
      ...(carriedOut > 0 && {
        removalWindowStart: inWindow > 0 ? state?.removalWindowStart : now,
        removalWindowCount: inWindow + carriedOut,
      }),
    };
  }

  /** The activity of held and kept removals, and the problems a run that went through solves. */
  async function log(
    userId: string,
    state: SyncState | null,
    brake: BrakeDecision,
    now: Date,
    problemsOpen = true,
  ) {
    const held = brake.held.length;
    const entries: NewActivity[] = [];
    const idsOf = (plan: LinkPlan) => ({
      taskId: plan.link?.taskId ?? null,
      eventId: plan.link?.eventId ?? null,
    });
    // Held again by every run until the user chooses: logged when what is held changes.
    if (held > 0 && held !== (state ? heldCount(state) : 0)) {
      for (const plan of brake.held) {
        const direction = plan.events.length > 0 ? 'todoist-to-calendar' : 'calendar-to-todoist';
        entries.push({ direction, action: 'held', detail: null, ...idsOf(plan) });
      }
    }
    for (const plan of brake.kept) {
      entries.push({ direction: 'todoist-to-calendar', action: 'kept', detail: null, ...idsOf(plan) });
    }
    await deps.activity.add(userId, entries, now);
    // The run went through: every problem but held removals is solved (none raised: nothing to clear).
    if (problemsOpen)
      await deps.activity.clear(
        userId,
        SYNC_PROBLEMS.filter((code) => held === 0 || code !== 'removals-held'),
      );
    if (held > 0) await deps.activity.raise(userId, 'removals-held', state?.heldSince ?? now);
  }

  return { removalsInWindow, statePatch, log };
}
