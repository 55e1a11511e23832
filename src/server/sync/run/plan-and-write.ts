import type { PlanInput } from '../plan/link-plan.ts';
import { applyBrake, type BrakeThresholds, tasksToRestore } from '../plan/removal-brake.ts';
import { planSync } from '../plan/sync-planner.ts';
import type { SyncLink } from '../sync-link.ts';
import type { SyncState } from '../sync-state.ts';
import type { createBrakeRecord } from './brake-record.ts';
import { executePlans, type PlanExecutorDeps, type WriteTarget } from './execute-plans.ts';

export type PlanAndWriteDeps = PlanExecutorDeps & {
  brakeRecord: Pick<ReturnType<typeof createBrakeRecord>, 'removalsInWindow'>;
  thresholds: BrakeThresholds;
};

/**
 * Plans and writes in up to three passes: creates a crashed run left unfinished, then the changes
 * (through the safety brake), then the tasks whose removal the user chose to undo.
 */
export async function planAndWrite(
  deps: PlanAndWriteDeps,
  input: Omit<PlanInput, 'links'>,
  links: SyncLink[],
  target: WriteTarget,
  state: SyncState | null,
  holding: boolean,
) {
  const inCalendar = (all: SyncLink[]) => all.filter((link) => link.calendarId === target.calendarId);
  // A task a crashed run created from an event is in this read, but not yet linked: finish those
  // creates first (same command uuid, so Todoist answers with that task), or it would look new.
  const unfinished = inCalendar(links).filter((link) => link.pendingKey && link.taskId === null);
  let writes = 0;
  let current = links;
  if (unfinished.length > 0) {
    const ids = new Set(unfinished.map((link) => link.eventId));
    const resumed = planSync({
      ...input,
      links: unfinished,
      tasks: [],
      events: input.events.filter((event) => ids.has(event.id)),
    });
    writes += await executePlans(deps, target, resumed);
    current = await deps.links.all(target.userId);
  }
  // A task a resumed create made only to delete it is not a new task of the user's.
  const plans = planSync({
    ...input,
    tasks: input.tasks.filter((task) => !target.discardedTasks.has(task.id)),
    links: inCalendar(current),
  });
  const brake = applyBrake({
    plans,
    linkedPairs: inCalendar(current).length,
    recentRemovals: deps.brakeRecord.removalsInWindow(state, input.now),
    holding,
    choice: holding ? (state?.brakeChoice ?? null) : null,
    itemChoices: holding ? (state?.brakeItems ?? []) : [],
    thresholds: deps.thresholds,
  });
  writes += await executePlans(deps, target, brake.run);
  const restore = tasksToRestore(brake);
  if (restore.size > 0) {
    const restored = planSync({
      ...input,
      tasks: input.tasks.filter((task) => restore.has(task.id)),
      events: [],
      links: [],
    });
    writes += await executePlans(deps, target, restored);
  }
  return { plans: plans.length, writes, brake };
}
