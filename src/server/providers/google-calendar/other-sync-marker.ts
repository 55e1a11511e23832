import type { OtherSync } from '#shared/api/sync.schema.ts';

/**
 * Todoist's own Google Calendar integration links each event it writes to its task, in the event's
 * description (`https://app.todoist.com/app/task/<id>`, older events `todoist.com/showTask?id=<id>`).
 * Our own events can carry the same link (the "Todoist link in description" setting), but they are
 * tagged as ours and never judged by this.
 */
const TODOIST_TASK_LINK = /https?:\/\/(?:app\.)?todoist\.com\/(?:app\/task\/|showTask\?id=)/i;

/** The other sync whose marker the event's description carries; null for none. The text is not kept. */
export function otherSyncOf(description: string | null | undefined): OtherSync | null {
  if (!description) return null;
  return TODOIST_TASK_LINK.test(description) ? 'todoist' : null;
}
