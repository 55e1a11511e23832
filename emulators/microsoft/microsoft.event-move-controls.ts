import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EventStore } from './microsoft.event-store.ts';
import { canEditCalendar, type MailboxStore } from './microsoft.mailbox-store.ts';

const moveSchema = z.object({
  /** A calendar of the same mailbox. */
  destinationId: z.string().min(1),
  /**
   * Whether the event's extended properties (and transaction id) go with it. Microsoft does not say;
   * kept by default, dropped to play the other reading (docs/provider-facts.md §11).
   */
  extendedProperties: z.enum(['kept', 'dropped']).default('kept'),
});

/**
 * `POST /_emulator/events/:eventId/move`: the user moves an event to another of their calendars in
 * Outlook. Graph has no such call that keeps the id: the event gets a new id in the destination, the
 * source's delta reports the old id `@removed`, and the subscriptions of both calendars are told
 * (`deleted` and `created`), as for any delete and create (docs/provider-facts.md §11).
 */
export function registerEventMoveControls(
  app: FastifyInstance,
  { events, mailboxes }: { events: EventStore; mailboxes: MailboxStore },
): void {
  app.post('/_emulator/events/:eventId/move', async (request, reply) => {
    const parsed = moveSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      return reply.code(400).send({ error: 'invalid control request', issues: parsed.error.issues });
    }
    const event = events.byId((request.params as { eventId: string }).eventId);
    if (!event) return reply.code(404).send({ error: 'no such event' });
    const destination = mailboxes.calendar(event.userId, parsed.data.destinationId);
    if (!destination) return reply.code(404).send({ error: 'no such calendar in this mailbox' });
    if (destination.id === event.calendarId) {
      return reply.code(400).send({ error: 'the event is already in that calendar' });
    }
    const source = mailboxes.calendar(event.userId, event.calendarId);
    if (!canEditCalendar(destination) || !source || !canEditCalendar(source)) {
      return reply.code(403).send({ error: 'the user cannot move events out of or into that calendar' });
    }
    const moved = events.move(event, destination.id, parsed.data.extendedProperties === 'dropped');
    return { id: moved.id, previousId: event.id, calendarId: moved.calendarId };
  });
}
