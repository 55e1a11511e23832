import type { CalendarEvent } from '../calendar-target.port.ts';
import type { SyncLink } from '../sync-link.ts';
import type { SyncState } from '../sync-state.ts';

/**
 * Another sync writing into the chosen calendar (docs/product-rules.md §10 "Another sync"): the first
 * event a run reads that carries another tool's marker, is not ours and not linked to a task, is kept
 * on the sync state to be named on the dashboard. Once per tool: seen again, or dismissed, nothing
 * changes. Pure: the engine saves the patch with the run's end.
 */
export function otherSyncSeen(
  state: Pick<SyncState, 'otherSync'> | null,
  events: readonly CalendarEvent[],
  links: readonly Pick<SyncLink, 'eventId'>[],
  now: Date,
): Pick<SyncState, 'otherSync'> | Record<string, never> {
  const linked = new Set(links.map((link) => link.eventId));
  const marked = events.find(
    (event) => event.otherSync !== null && event.taskTag === null && !event.deleted && !linked.has(event.id),
  );
  if (!marked?.otherSync || state?.otherSync?.tool === marked.otherSync) return {};
  return { otherSync: { tool: marked.otherSync, seenAt: now.toISOString(), dismissed: false } };
}
