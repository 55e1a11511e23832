import type { SyncActivity } from '#shared/api/sync.schema.ts';

export type HeldRemovals = NonNullable<SyncActivity['heldRemovals']>;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What each choice does, in words the user reads before choosing. */
export const HELD_REMOVALS_TEXT = {
  why: 'So many removals at once usually come from a change around the sync, such as a label deleted in Todoist or a calendar emptied, rather than from edits one by one. Nothing has been removed.',
  remove: 'Remove them: the sync carries the removals out once.',
  keep: 'Keep them: nothing is removed. Events stay as they are, no longer synced with their tasks; tasks whose events were deleted get new ones.',
  pending: {
    remove: 'Removing them now…',
    keep: 'Keeping them and unlinking the pairs now…',
  },
} as const;

/** The confirmation before removing: what goes, by count ("Remove 6 events?"). */
export function removeQuestion({ events, tasks }: Pick<HeldRemovals, 'events' | 'tasks'>): string {
  const parts = [events > 0 && count(events, 'event', 'events'), tasks > 0 && count(tasks, 'task', 'tasks')];
  return `Remove ${parts.filter(Boolean).join(' and ')}?`;
}

/** What removing does to each side, said before the user confirms. */
export function removeConsequences({ events, tasks }: Pick<HeldRemovals, 'events' | 'tasks'>): string[] {
  return [
    events > 0 &&
      `${count(events, 'event is', 'events are')} deleted from your calendar. Their tasks stay in Todoist as they are.`,
    tasks > 0 &&
      (tasks === 1
        ? '1 task is deleted in Todoist, or loses its time and timebox label.'
        : `${tasks} tasks are deleted in Todoist, or lose their time and timebox label.`),
  ].filter((line): line is string => typeof line === 'string');
}
