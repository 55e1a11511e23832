import { z } from 'zod';
import { countOf } from '../text/count-of.ts';

/**
 * Removals the safety brake held back (docs/product-rules.md §10), in the words the dashboard, the
 * sandbox and the notice mail use: the counts and the cause, never a task's or event's title.
 */

/**
 * Why the brake held removals: a timebox label that came off the tasks (deleted in Todoist, or taken
 * off), tasks deleted in Todoist, events deleted in the calendar, or tasks that left what syncs
 * otherwise (a project). A label's name is a setting, not a task's text.
 */
export const heldCauseSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('label-removed'), label: z.string(), deleted: z.boolean() }),
  z.object({ kind: z.literal('tasks-deleted') }),
  z.object({ kind: z.literal('events-deleted') }),
  z.object({ kind: z.literal('out-of-scope') }),
]);
export type HeldCause = z.infer<typeof heldCauseSchema>;

type Held = { events: number; tasks: number; cause: HeldCause | null };

/** "Timeboxer held back removing 37 events" (and/or deleting or unscheduling tasks): the headline. */
export function heldRemovalsTitle({ events, tasks }: Pick<Held, 'events' | 'tasks'>): string {
  const parts = [
    events > 0 && `removing ${countOf(events, 'event', 'events')}`,
    tasks > 0 && `deleting or unscheduling ${countOf(tasks, 'task', 'tasks')}`,
  ].filter(Boolean);
  return `Timeboxer held back ${parts.join(' and ')}`;
}

const CAUSES: Record<HeldCause['kind'], (cause: HeldCause) => string> = {
  'label-removed': (cause) =>
    cause.kind === 'label-removed' && cause.deleted
      ? `after the label @${cause.label} was deleted in Todoist`
      : `after the label @${cause.kind === 'label-removed' ? cause.label : ''} came off their tasks in Todoist`,
  'tasks-deleted': () => 'after their tasks were deleted in Todoist',
  'events-deleted': () => 'after their events were deleted in the calendar',
  'out-of-scope': () => 'after their tasks left what syncs (a project archived, deleted or no longer chosen)',
};

/** "6 events held back after the label @30Minutes was deleted in Todoist": the counts and the cause. */
export function heldSummary({ events, tasks, cause }: Held): string {
  const what = [
    events > 0 && countOf(events, 'event', 'events'),
    tasks > 0 && countOf(tasks, 'task', 'tasks'),
  ]
    .filter(Boolean)
    .join(' and ');
  return cause ? `${what} held back ${CAUSES[cause.kind](cause)}` : `${what} held back`;
}

/** The summary as a sentence: "6 events held back after the label @30Minutes was deleted in Todoist." */
export function heldSentence(held: Held): string {
  const summary = heldSummary(held);
  return `${summary.charAt(0).toUpperCase()}${summary.slice(1)}.`;
}
