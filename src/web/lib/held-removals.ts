import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { countOf } from '#shared/text/count-of.ts';

export type HeldRemovals = NonNullable<SyncActivity['heldRemovals']>;
export type HeldRemovalItem = HeldRemovals['items'][number];

/** What each choice does, in words the user reads before choosing. */
export const HELD_REMOVALS_TEXT = {
  why: 'So many removals at once usually come from a change around the sync, such as a label deleted in Todoist or a calendar emptied, rather than from edits one by one. Nothing has been removed.',
  remove: 'Remove carries out the held removal, once. Remove them does so for every item still held.',
  keep: 'Keep removes nothing: the event stays as it is, no longer synced with its task, and a task whose event was deleted gets a new one. Keep them does so for every item still held.',
  pending: {
    remove: 'Removing them now…',
    keep: 'Keeping them and unlinking the pairs now…',
  },
  /** One item's own choice, saved and waiting for the run that carries it out. */
  itemPending: {
    remove: 'Removing…',
    keep: 'Keeping…',
  },
  /** Every item has a choice of its own: the run carries them out. */
  allDecided: 'Carrying out your choices now…',
} as const;

/**
 * What is still held without a choice: the counts less the items the user chose for one by one (the
 * run carrying the choices out takes them off the counts in a few seconds).
 */
export function stillHeld(held: HeldRemovals): Pick<HeldRemovals, 'events' | 'tasks'> {
  const decided = held.items.filter((item) => item.choice !== null);
  const events = decided.filter((item) => item.removes === 'event').length;
  return {
    events: Math.max(0, held.events - events),
    tasks: Math.max(0, held.tasks - (decided.length - events)),
  };
}

/** Whether the sync waits for the user: something is held with no choice made for it. */
export function decisionWaits(held: HeldRemovals | null | undefined): boolean {
  if (!held || held.choice) return false;
  const { events, tasks } = stillHeld(held);
  return events + tasks > 0;
}

/** The confirmation before removing one item, by its name ("Remove “Review PR”?"). */
export function removeItemQuestion(name: string): string {
  return `Remove “${name}”?`;
}

/** What removing one item does, said before the user confirms. */
export function removeItemConsequence(item: Pick<HeldRemovalItem, 'removes'>): string {
  return item.removes === 'event'
    ? 'Its event is deleted from your calendar. The task stays in Todoist as it is.'
    : 'The task is deleted in Todoist, or loses its time and timebox label.';
}

/** The confirmation before removing: what goes, by count ("Remove 6 events?"). */
export function removeQuestion({ events, tasks }: Pick<HeldRemovals, 'events' | 'tasks'>): string {
  const parts = [
    events > 0 && countOf(events, 'event', 'events'),
    tasks > 0 && countOf(tasks, 'task', 'tasks'),
  ];
  return `Remove ${parts.filter(Boolean).join(' and ')}?`;
}

/** What removing does to each side, said before the user confirms. */
export function removeConsequences({ events, tasks }: Pick<HeldRemovals, 'events' | 'tasks'>): string[] {
  return [
    events > 0 &&
      `${countOf(events, 'event is', 'events are')} deleted from your calendar. Their tasks stay in Todoist as they are.`,
    tasks > 0 &&
      (tasks === 1
        ? '1 task is deleted in Todoist, or loses its time and timebox label.'
        : `${tasks} tasks are deleted in Todoist, or lose their time and timebox label.`),
  ].filter((line): line is string => typeof line === 'string');
}
