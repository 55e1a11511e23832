import type { LinkTaskMeta } from '#server/db/schema/sync.tables.ts';

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
  /** The task's version when the calendar refused its event for good; null: none refused. */
  refusedTaskVersion: string | null;
};

export type { LinkTaskMeta };
