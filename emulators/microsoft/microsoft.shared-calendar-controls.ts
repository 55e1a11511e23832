import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { newChangeKey } from './microsoft.ids.ts';
import type { MailboxStore } from './microsoft.mailbox-store.ts';

const sharedCalendarSchema = z.object({
  /** The user the calendar is shared with (their mailbox is made on first sight). */
  email: z.email(),
  name: z.string().min(1),
  /** Read only unless told otherwise. */
  canEdit: z.boolean().default(false),
  owner: z
    .object({ name: z.string().min(1), address: z.email() })
    .default({ name: 'Calendar Owner', address: 'calendar.owner@example.com' }),
});
const accessSchema = z.object({ canEdit: z.boolean() });

/**
 * `/_emulator/calendars/…`: calendars someone else shares with a user, listed in the user's
 * `/me/calendars` with `canEdit` false (read) or true (write) and the sharer as `owner`, and the user's
 * access to a calendar changing (docs/provider-facts.md §9).
 */
export function registerSharedCalendarControls(app: FastifyInstance, mailboxes: MailboxStore): void {
  app.post('/_emulator/calendars/shared', async (request, reply) => {
    const parsed = sharedCalendarSchema.safeParse(request.body);
    if (!parsed.success) {
      return reply.code(400).send({ error: 'invalid control request', issues: parsed.error.issues });
    }
    const { email, name, canEdit, owner } = parsed.data;
    const user = mailboxes.ensureUser({ email });
    const calendar = mailboxes.shareCalendar(user.id, name, { canEdit, owner });
    return reply.code(201).send({ id: calendar.id, name: calendar.name, canEdit, owner: calendar.sharedBy });
  });

  // The user's access to one of their calendars changes (shared to read only now, say).
  app.post('/_emulator/calendars/:calendarId/access', async (request, reply) => {
    const parsed = accessSchema.safeParse(request.body);
    if (!parsed.success) {
      return reply.code(400).send({ error: 'invalid control request', issues: parsed.error.issues });
    }
    const calendar = mailboxes.calendarById((request.params as { calendarId: string }).calendarId);
    if (!calendar) return reply.code(404).send({ error: 'no such calendar' });
    calendar.canEdit = parsed.data.canEdit;
    calendar.changeKey = newChangeKey();
    return { id: calendar.id, canEdit: calendar.canEdit };
  });
}
