import type { HeldCause } from '../sync-state.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import type { LinkPlan } from './link-plan.ts';

type Reason =
  | { kind: 'label-removed'; label: string }
  | { kind: 'tasks-deleted' }
  | { kind: 'events-deleted' }
  | { kind: 'out-of-scope' };

/** Why one held removal came about: its task deleted, its event deleted, a label off its task, or its scope. */
function reasonOf(plan: LinkPlan, tasks: ReadonlyMap<string, TaskSnapshot>): Reason {
  // No event to remove: the event went, and the task would lose its time or be deleted.
  if (plan.events.length === 0) return { kind: 'events-deleted' };
  const task = plan.link?.taskId ? tasks.get(plan.link.taskId) : undefined;
  if (!task || task.isDeleted) return { kind: 'tasks-deleted' };
  const lost = (plan.link?.taskMeta.labels ?? []).filter((label) => !task.labels.includes(label));
  return lost.length === 1 && lost[0] ? { kind: 'label-removed', label: lost[0] } : { kind: 'out-of-scope' };
}

/**
 * The one cause of the removals the brake held, when they share one (the mail and the dashboard say it:
 * "6 events held back after the label @30Minutes was deleted in Todoist"); null when they have
 * different causes, or none are held. `deletedLabels`: the labels this run read as deleted in Todoist.
 */
export function heldCause(
  held: readonly LinkPlan[],
  tasks: readonly TaskSnapshot[],
  deletedLabels: ReadonlySet<string>,
): HeldCause | null {
  if (held.length === 0) return null;
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const reasons = held.map((plan) => reasonOf(plan, byId));
  const [first] = reasons;
  if (!first) return null;
  const same = reasons.every(
    (reason) =>
      reason.kind === first.kind &&
      (reason.kind !== 'label-removed' || first.kind !== 'label-removed' || reason.label === first.label),
  );
  if (!same) return null;
  return first.kind === 'label-removed' ? { ...first, deleted: deletedLabels.has(first.label) } : first;
}
