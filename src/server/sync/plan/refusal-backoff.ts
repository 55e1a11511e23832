import type { CalendarEvent } from '../calendar-target.port.ts';
import type { SyncLink } from '../sync-link.ts';
import type { TaskSnapshot } from '../task-source.port.ts';

/**
 * When a pair whose write a provider refused for good is tried again (docs/product-rules.md §10): 15
 * minutes after the first refusal, an hour after the second, four hours after the third, then daily. A
 * refusal is the provider's answer to what the write said, so repeating it at once would only be refused
 * again; a change the user made to the item since is a new write, and is tried at once.
 */
const WAITS_MS = [15 * 60_000, 60 * 60_000, 4 * 60 * 60_000] as const;
const DAILY_MS = 24 * 60 * 60_000;

type Refused = Pick<SyncLink, 'refusedWrite' | 'refusedAt' | 'refusedCount'>;

/** The wait after the `count`-th refusal in a row (1: the first). */
export function refusalWaitMs(count: number): number {
  return WAITS_MS[Math.max(0, count - 1)] ?? DAILY_MS;
}

/** When the refused write is tried again; null: nothing refused. */
export function refusalRetryAt(link: Refused): Date | null {
  if (link.refusedWrite === null || link.refusedAt === null) return null;
  return new Date(link.refusedAt.getTime() + refusalWaitMs(link.refusedCount));
}

/** The refused write's time to be tried again has come (or nothing was refused). */
export function refusalDue(link: Refused, now: Date): boolean {
  const at = refusalRetryAt(link);
  return at === null || at.getTime() <= now.getTime();
}

/**
 * The user changed the item since the refusal: the task or the event this run read is at another
 * version than the one refused, or new settings rewrite the event (`appearance`, our events only). A
 * side not read this run did not change.
 */
export function changedSinceRefusal(
  link: Pick<SyncLink, 'refusedTaskVersion' | 'refusedEventVersion' | 'refusedAppearance' | 'origin'>,
  task: TaskSnapshot | undefined,
  event: CalendarEvent | undefined,
  appearance: string,
): boolean {
  const taskChanged = task !== undefined && (task.isDeleted || task.updatedAt !== link.refusedTaskVersion);
  const eventChanged = event !== undefined && (event.deleted || event.version !== link.refusedEventVersion);
  const restyled =
    link.origin === 'task' && link.refusedAppearance !== null && link.refusedAppearance !== appearance;
  return taskChanged || eventChanged || restyled;
}

/** The planner leaves the pair alone this run: refused, not due, and unchanged since. */
export function refusalWaits(
  link: SyncLink,
  task: TaskSnapshot | undefined,
  event: CalendarEvent | undefined,
  now: Date,
  appearance: string,
): boolean {
  return (
    link.refusedWrite !== null &&
    !refusalDue(link, now) &&
    !changedSinceRefusal(link, task, event, appearance)
  );
}
