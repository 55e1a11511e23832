import type { RefusedWrite } from '#shared/sync/refused-writes.ts';
import type { LinkPlan } from '../plan/link-plan.ts';
import type { NewActivity } from '../store/sync-activity.repository.ts';
import type { SyncLink } from '../sync-link.ts';

/**
 * A write a provider refused for good, as the pair keeps it (docs/product-rules.md §10): what, the
 * provider's status and short reason code. Never the provider's message, which may quote the user's text.
 */
export type Refusal = { write: RefusedWrite; status: number | null; reason: string | null };

/**
 * A calendar write refused for good: a 4xx other than 401 (the token: refreshed and tried again), 409
 * and 412 (the event changed or exists: read again) and 429 (a limit: waited for); null for anything
 * else, which fails the run as before (docs/provider-facts.md §12).
 */
export function calendarRefusal(error: unknown, write: RefusedWrite): Refusal | null {
  const { status, reason } = (error ?? {}) as { status?: unknown; reason?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  if (status === 401 || status === 409 || status === 412 || status === 429) return null;
  return { write, status, reason: typeof reason === 'string' ? reason : null };
}

/**
 * The link's values that mark the refusal: the versions and settings it was refused for (a change of
 * any is the user's, and is tried at once), and the count the back-off grows with. A refusal of another
 * write than the one before starts the count again.
 */
export function refusalValues(
  plan: LinkPlan,
  refusal: Refusal,
  now: Date,
  eventVersion: string | null,
): Partial<Omit<SyncLink, 'id'>> {
  const before = plan.link;
  const again = before?.refusedWrite === refusal.write;
  return {
    pendingKey: null,
    refusedWrite: refusal.write,
    refusedStatus: refusal.status,
    refusedReason: refusal.reason,
    refusedAt: now,
    refusedCount: again ? (before?.refusedCount ?? 0) + 1 : 1,
    refusedTaskVersion: plan.next?.taskVersion ?? before?.taskVersion ?? null,
    refusedEventVersion: eventVersion ?? plan.next?.eventVersion ?? before?.eventVersion ?? null,
    refusedAppearance: plan.next?.appearanceHash ?? before?.appearanceHash ?? null,
  };
}

/** The activity says "skipped" once per refused write, not at every try of the back-off. */
export function refusalActivity(
  plan: LinkPlan,
  refusal: Refusal,
  ids: { taskId: string | null; eventId: string | null },
): NewActivity[] {
  if (plan.link?.refusedWrite === refusal.write) return [];
  const direction = refusal.write.startsWith('event') ? 'todoist-to-calendar' : 'calendar-to-todoist';
  return [{ direction, action: 'skipped', ...ids, detail: 'refused' }];
}
