import type { CalendarEvent } from '../calendar-target.port.ts';
import type { SyncLink } from '../sync-link.ts';
import type { SyncSettings } from '../sync-settings.ts';
import { eventWhen } from './timebox-when.ts';

/**
 * Events moved out of the chosen calendar and back (docs/product-rules.md §10 "Moved to another
 * calendar"). Outlook gives an event a new id each time it changes calendar (docs/provider-facts.md
 * §11), so one moved out and back between two reads comes as its old id gone and a new event carrying
 * our tag; held by the safety brake, a removal's later read (in full) sees the same. Such an event is
 * the pair's own: the pair goes on with it, rather than losing its task or timebox while the event is
 * back in its place, and rather than a second event for the task.
 *
 * One is taken for the pair's when, in the same read, the pair's event is gone and an event no link
 * holds carries the pair's task id as our tag at the pair's own time (a recurring task's earlier
 * occurrences carry the same tag, at other times). Google keeps the id, so there the pair's event is
 * simply back; an event the user made carries no tag, and a pair already over is not brought back.
 *
 * Answers: the pair's old event id → the event to go on with.
 */
export function movedBackEvents(
  links: readonly SyncLink[],
  events: readonly CalendarEvent[],
  settings: SyncSettings,
): Map<string, CalendarEvent> {
  const linkedEvents = new Set(links.flatMap((link) => (link.eventId ? [link.eventId] : [])));
  const gone = new Set(events.filter((event) => event.deleted).map((event) => event.id));
  const candidates = new Map<string, CalendarEvent[]>();
  for (const event of events) {
    if (event.deleted || event.taskTag === null || linkedEvents.has(event.id)) continue;
    candidates.set(event.taskTag, [...(candidates.get(event.taskTag) ?? []), event]);
  }
  const moved = new Map<string, CalendarEvent>();
  const taken = new Set<string>();
  for (const link of links) {
    if (!link.eventId || !link.taskId || link.completed || !gone.has(link.eventId)) continue;
    const back = (candidates.get(link.taskId) ?? []).find((event) => {
      const when = eventWhen(event, settings, link.allDay);
      return (
        !taken.has(event.id) &&
        when !== null &&
        when.allDay === link.allDay &&
        when.start.getTime() === link.startAt.getTime()
      );
    });
    if (!back) continue;
    taken.add(back.id);
    moved.set(link.eventId, back);
  }
  return moved;
}
