import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { finalizeDraft } from './google-calendar.event-model.ts';
import { type CalendarStore, canWriteEvents, eventIn } from './google-calendar.store.ts';

const moveSchema = z.object({ destination: z.string().min(1) });

/**
 * `POST /_emulator/calendars/:calendarId/events/:eventId/move`: the user moves an event to another of
 * their calendars in Google Calendar (the event's calendar chosen anew). It is what `events.move` does:
 * the same id in the destination with every property (private extended properties too), a cancelled
 * entry in the source's incremental sync, both calendars' watchers told (docs/provider-facts.md §11).
 */
export function registerEventMoveControls(app: FastifyInstance, store: CalendarStore): void {
  app.post('/_emulator/calendars/:calendarId/events/:eventId/move', async (request, reply) => {
    const parsed = moveSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      return reply.code(400).send({ error: 'invalid request', issues: parsed.error.issues });
    }
    const { calendarId, eventId } = request.params as { calendarId: string; eventId: string };
    const source = store.calendar(calendarId);
    const destination = store.calendar(parsed.data.destination);
    if (!source || !destination || destination.ownerEmail !== source.ownerEmail) {
      return reply.code(404).send({ error: 'no such calendar of this account' });
    }
    const event = eventIn(source, eventId);
    if (!event || event.data.status === 'cancelled') return reply.code(404).send({ error: 'no such event' });
    if (destination.id === source.id) return reply.code(400).send({ error: 'already in that calendar' });
    if (!canWriteEvents(source) || !canWriteEvents(destination)) {
      return reply.code(403).send({ error: 'the account cannot move events out of or into that calendar' });
    }
    // As events.move: the destination may hold only the cancelled entry this same event left there.
    const there = destination.events.get(event.id);
    if (there && !(there.data.status === 'cancelled' && there.iCalUID === event.iCalUID)) {
      return reply.code(409).send({ error: 'the destination holds another event with this id' });
    }
    const moved = store.move(source, destination, event, finalizeDraft(event.data, destination.timeZone));
    return { id: moved.id, calendarId: destination.id };
  });
}
