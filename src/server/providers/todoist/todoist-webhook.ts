import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * Reads a Todoist webhook (`POST /api/webhooks/todoist`): Todoist signs the raw body with the app's
 * client secret (HMAC-SHA256, base64, in `X-Todoist-Hmac-SHA256`), checked in constant time.
 */
const todoistWebhookSchema = z.object({
  event_name: z.string(),
  user_id: z.union([z.string(), z.number()]),
  event_data: z.object({ id: z.string() }).partial().optional(),
  event_data_extra: z
    .object({
      update_intent: z.string(),
      old_item: z.object({ due: z.object({ is_recurring: z.boolean() }).nullish() }).partial(),
    })
    .partial()
    .optional(),
});

/** rejected: not signed by Todoist (or Todoist is not configured); ignored: signed, but not an event. */
export type TodoistWebhookReading =
  | { kind: 'rejected' }
  | { kind: 'ignored' }
  | {
      kind: 'event';
      todoistUserId: string;
      /** The task whose recurring occurrence was completed (Todoist moves its due; reads cannot tell). */
      completedOccurrence: string | null;
    };

export type TodoistWebhookReader = (rawBody: Buffer, signature: string | undefined) => TodoistWebhookReading;

/** The reader for the app's client secret; null (Todoist not configured) rejects every webhook. */
export function createTodoistWebhookReader(clientSecret: string | null): TodoistWebhookReader {
  return (rawBody, signature) => {
    if (!clientSecret || !signature) return { kind: 'rejected' };
    const expected = createHmac('sha256', clientSecret).update(rawBody).digest();
    const given = Buffer.from(signature, 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { kind: 'rejected' };
    const parsed = todoistWebhookSchema.safeParse(safeJson(rawBody));
    if (!parsed.success) return { kind: 'ignored' };
    const hook = parsed.data;
    const occurrenceCompleted =
      hook.event_name === 'item:updated' &&
      hook.event_data_extra?.update_intent === 'item_completed' &&
      hook.event_data_extra.old_item?.due?.is_recurring === true &&
      typeof hook.event_data?.id === 'string';
    return {
      kind: 'event',
      todoistUserId: String(hook.user_id),
      completedOccurrence: occurrenceCompleted ? (hook.event_data?.id ?? null) : null,
    };
  };
}

function safeJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}
