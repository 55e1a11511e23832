import { SYNC_PROBLEMS } from '#shared/api/sync.schema.ts';
import { heldCause } from '../plan/held-cause.ts';
import {
  type BrakeDecision,
  type BrakeThresholds,
  isRemoval,
  pairKey,
  pairOf,
} from '../plan/removal-brake.ts';
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
  activity: Pick<SyncActivityRepository, 'add' | 'clear' | 'raise' | 'lastHeld'>;
  thresholds: BrakeThresholds;
}) {
  /** Removals carried out within the brake's window before this run. */
  function removalsInWindow(state: SyncState | null, now: Date): number {
    const start = state?.removalWindowStart;
    return start && now.getTime() - start.getTime() < deps.thresholds.windowMs
      ? (state?.removalWindowCount ?? 0)
      : 0;
  }

  /**
   * What the brake decided, for the state the run saves at its end; the cause of held removals is the
   * one seen when the brake tripped (later runs read the same removals again, not their cause). The
   * user's choices go when the brake ends, a choice saved while this run was under way too, so none
   * reaches a later brake; a choice for all always ends it (it decides every removal). Choices for
   * single items stay while the brake holds: those carried out name pairs that are over, and one
   * saved meanwhile must not be lost.
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
    // Removals the user released do not count against the next ones.
    const carriedOut = brake.run.filter(isRemoval).length - brake.released.length;
    const inWindow = removalsInWindow(state, now);
    return {
      heldEvents,
      heldTasks: held - heldEvents,
      heldSince: held > 0 ? (state?.heldSince ?? now) : null,
      heldCause:
        held === 0 ? null : holding ? state.heldCause : heldCause(brake.held, read.tasks, read.deletedLabels),
      ...(held === 0 && { brakeChoice: null, brakeItems: null }),
      ...(carriedOut > 0 && {
        removalWindowStart: inWindow > 0 ? state?.removalWindowStart : now,
        removalWindowCount: inWindow + carriedOut,
      }),
    };
  }

  /** Whether `log` writes anything: held or kept removals, or problems to clear. */
  function logs(brake: BrakeDecision, problemsOpen = true): boolean {
    return brake.held.length > 0 || brake.kept.length > 0 || problemsOpen;
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
    // Held again by every run until the user chooses: logged when what is held changes.
    if (held > 0 && (await heldChanged(userId, state, brake))) {
      for (const plan of brake.held) {
        const direction = plan.events.length > 0 ? 'todoist-to-calendar' : 'calendar-to-todoist';
        entries.push({ direction, action: 'held', detail: null, ...pairOf(plan) });
      }
    }
    for (const plan of brake.kept) {
      entries.push({ direction: 'todoist-to-calendar', action: 'kept', detail: null, ...pairOf(plan) });
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

  /**
   * Whether the run holds other removals than the ones last logged: another count, or an item logged
   * that is no longer held (decided by the user, or undone), even with as many new ones. A log cut
   * short by the activity's length is compared as far as it goes.
   */
  async function heldChanged(userId: string, state: SyncState | null, brake: BrakeDecision) {
    if (brake.held.length !== (state ? heldCount(state) : 0)) return true;
    const held = new Set(brake.held.map((plan) => pairKey(pairOf(plan))));
    return (await deps.activity.lastHeld(userId)).some((item) => !held.has(pairKey(item)));
  }

  return { removalsInWindow, statePatch, logs, log };
}
