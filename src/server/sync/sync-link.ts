import type { LinkTaskMeta } from '#server/db/schema/sync.tables.ts';
import type { RefusedWrite } from '#shared/sync/refused-writes.ts';

/** A link row as the engine sees it: one task mirrored by one event (see db/schema/sync.tables.ts). */
export type SyncLink = {
  id: string;
  taskId: string | null;
  eventId: string | null;
  calendarId: string;
  origin: 'task' | 'event';
  pendingKey: string | null;
  generation: number;
  taskVersion: string | null;
  eventVersion: string | null;
  titleHash: string;
  startAt: Date;
  /** A dated task and an all-day event: `startAt` is the start of the day in the user's zone. */
  allDay: boolean;
  taskMinutes: number;
  eventMinutes: number;
  completed: boolean;
  marked: boolean;
  appearanceHash: string;
  taskMeta: LinkTaskMeta;
  /** The task's version when a provider refused a write of the pair for good; null: none refused. */
  refusedTaskVersion: string | null;
} & LinkRefusal;

/**
 * A write of the pair a provider refused for good (a 4xx other than 401, 409, 412 and 429; a Todoist
 * command error): tried again on the back-off of `plan/refusal-backoff.ts`, at once when the user
 * changed the item since. `refusedWrite` null: nothing refused (a write that goes through clears it).
 */
export type LinkRefusal = {
  refusedWrite: RefusedWrite | null;
  /** The provider's HTTP status (Todoist's command errors: their `http_code`, when it gives one). */
  refusedStatus: number | null;
  /** The provider's short reason code (Google's `reason`, Graph's `code`, Todoist's `error_tag`); never user text. */
  refusedReason: string | null;
  refusedAt: Date | null;
  /** Refusals in a row; the back-off grows with it. */
  refusedCount: number;
  /** The event's version the write was refused for (the task's is `refusedTaskVersion`). */
  refusedEventVersion: string | null;
  /** The settings' fingerprint the write was refused with: a settings change that rewrites the item is a change. */
  refusedAppearance: string | null;
};

/** No refusal: what a new pair, and one whose write went through, carry. */
export const NO_REFUSAL: LinkRefusal & { refusedTaskVersion: null } = {
  refusedTaskVersion: null,
  refusedWrite: null,
  refusedStatus: null,
  refusedReason: null,
  refusedAt: null,
  refusedCount: 0,
  refusedEventVersion: null,
  refusedAppearance: null,
};

export type { LinkTaskMeta };
