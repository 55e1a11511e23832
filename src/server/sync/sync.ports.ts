/**
 * The ports of the sync engine: what it needs from a task service (Todoist) and from a calendar
 * (Google Calendar or Microsoft 365). Adapters in `providers/` implement them with the official SDKs;
 * the engine knows nothing of HTTP or of any vendor. Texts (titles, descriptions) pass through memory
 * only: the engine stores hashes of them, never the text.
 */

/** A Todoist due: `date` is `YYYY-MM-DD` (all-day), floating `YYYY-MM-DDTHH:MM:SS`, or UTC `…Z` (fixed). */
export type TaskDue = {
  date: string;
  /** Set for a fixed due time (Todoist's `timezone`); null for floating times and dates. */
  timezone: string | null;
  isRecurring: boolean;
  /** The human string ("every monday at 9am"); needed to keep a recurrence when the time moves. */
  string: string;
};

export type TaskSnapshot = {
  id: string;
  content: string;
  description: string;
  labels: string[];
  due: TaskDue | null;
  duration: { amount: number; unit: 'minute' | 'day' } | null;
  checked: boolean;
  completedAt: string | null;
  isDeleted: boolean;
  /** Todoist's `updated_at`: the version marker of the task. */
  updatedAt: string | null;
};

export type TaskChanges = {
  tasks: TaskSnapshot[];
  /** True when the read was a full one (no token, or Todoist refused the token). */
  full: boolean;
  nextToken: string;
  /** The Todoist user's time zone, when the read returned the user. */
  timeZone: string | null;
};

/** What we write of a due: a floating local time, or a fixed UTC instant with its zone. */
export type DueWrite =
  | { kind: 'floating'; local: string; string?: string }
  | { kind: 'fixed'; utc: string; timezone: string; string?: string }
  | { kind: 'date'; date: string; string?: string };

/**
 * A Todoist write. `uuid` makes it idempotent: the same command sent twice is applied once (Todoist
 * remembers command uuids), so a job that dies after sending it can send it again.
 */
export type TaskCommand =
  | {
      kind: 'add';
      uuid: string;
      tempId: string;
      content: string;
      due: DueWrite;
      labels: string[];
      duration: { amount: number; unit: 'minute' } | null;
    }
  | {
      kind: 'update';
      uuid: string;
      id: string;
      content?: string;
      due?: DueWrite | null;
      labels?: string[];
      duration?: { amount: number; unit: 'minute' } | null;
    }
  | { kind: 'delete'; uuid: string; id: string };

export type TaskCommandResult = {
  /** Real ids of added tasks, by the command's temp id. */
  idsByTempId: Record<string, string>;
  /** Commands Todoist refused, by uuid, with its error tag. A deleted task's update is refused. */
  failed: Record<string, string>;
};

export type TaskSource = {
  /** Changes since `syncToken` (null: everything active). An expired token yields a full read. */
  changes(accessToken: string, syncToken: string | null): Promise<TaskChanges>;
  /** One task, completed or not; null when it no longer exists. */
  task(accessToken: string, id: string): Promise<TaskSnapshot | null>;
  apply(accessToken: string, commands: TaskCommand[]): Promise<TaskCommandResult>;
};

export type CalendarEvent = {
  id: string;
  /** Cancelled (deleted) events come with incremental reads. */
  deleted: boolean;
  title: string;
  /** Null for all-day events. */
  start: Date | null;
  end: Date | null;
  allDay: boolean;
  /** A recurring series or one of its occurrences: never synced to tasks. */
  recurring: boolean;
  /** Google's event `colorId` (null: the calendar's colour). Always null for Microsoft. */
  color: string | null;
  /** Microsoft categories; empty for Google. */
  categories: string[];
  /** The task id we tagged the event with when we created it; null for events the user made. */
  taskTag: string | null;
  /** Google `etag`, Graph `changeKey`. */
  version: string;
  /** When the provider last changed the event (decides which side wins a conflict). */
  updatedAt: Date | null;
};

export type CalendarChanges = { events: CalendarEvent[]; full: boolean; nextToken: string };

/** The fields of an event we write; the settings decide colour, privacy, reminder and description. */
export type EventWrite = {
  title: string;
  start: Date;
  end: Date;
  /** Shown as the event's time zone (the Todoist user's zone). */
  timeZone: string;
  /** Google colour id ('' = the calendar's colour). Ignored by Microsoft. */
  color: string;
  /** Microsoft category name (null = none). Ignored by Google. */
  category: string | null;
  private: boolean;
  /** Minutes before the start; null for none. */
  reminderMinutes: number | null;
  /** Null: no description. */
  description: string | null;
  /** The task this event mirrors; stored on the event so a retried create finds it. */
  taskId: string;
  /**
   * False for an event the user made (it became a task): only its title and time are ours to change;
   * colour, category, privacy, reminder and description stay as the user left them.
   */
  appearance: boolean;
};

export type WatchChannel = {
  id: string;
  /** Google's `resourceId` (needed to stop the channel); null for Graph. */
  resourceId: string | null;
  expiresAt: Date;
};

export type CalendarTarget = {
  /**
   * Changes since `syncToken` (null: a full read of the calendar). SyncTokenExpiredError when the
   * provider refuses the token (Google 410, Graph `syncStateNotFound`): the caller reads in full.
   */
  changes(accessToken: string, calendarId: string, syncToken: string | null): Promise<CalendarChanges>;
  /**
   * Creates the event, idempotently: `clientKey` is the same on every attempt for one intended event
   * (Google event id, Graph `transactionId`), and a second attempt returns the event the first made.
   */
  create(
    accessToken: string,
    calendarId: string,
    clientKey: string,
    write: EventWrite,
  ): Promise<CalendarEvent>;
  /**
   * Updates the event. With `ifVersion`, only if the event is still at that version (Google `If-Match`
   * etag, Graph `If-Match` change key); otherwise EventChangedError and nothing is written.
   */
  update(
    accessToken: string,
    calendarId: string,
    eventId: string,
    write: EventWrite,
    ifVersion?: string,
  ): Promise<CalendarEvent>;
  /** Deletes the event; an event already gone is not an error. */
  remove(accessToken: string, calendarId: string, eventId: string): Promise<void>;
  /** Push notifications for changes in the calendar (Google watch channel, Graph subscription). */
  watch(
    accessToken: string,
    calendarId: string,
    channel: { id: string; address: string; secret: string; ttlSeconds: number },
  ): Promise<WatchChannel>;
  /** Stops a channel; one already gone is not an error. */
  stopWatch(accessToken: string, channel: WatchChannel): Promise<void>;
};

/** The provider no longer honours our sync token (Google 410 Gone): read everything once. */
export class SyncTokenExpiredError extends Error {
  override name = 'SyncTokenExpiredError';
}

/** The event changed since the version a guarded update named (412): read it before writing. */
export class EventChangedError extends Error {
  override name = 'EventChangedError';
}

/** The chosen calendar no longer exists (deleted, or access lost). */
export class CalendarGoneError extends Error {
  override name = 'CalendarGoneError';
}

/** The provider asks us to slow down (429, or 403 rate-limit reasons); `retryAfterMs` from Retry-After. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  readonly retryAfterMs: number | null;

  constructor(message: string, retryAfterMs: number | null) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}
