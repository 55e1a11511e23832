import type { OtherSync } from '#shared/api/sync.schema.ts';

/**
 * What the sync engine needs from a calendar (Google Calendar or Microsoft 365): incremental reads,
 * keyed creates, guarded updates, push channels. The `providers/` adapters implement it with the
 * official SDKs; the engine knows nothing of HTTP or of any vendor. Texts pass through memory only.
 */

export type CalendarEvent = {
  id: string;
  /** Cancelled (deleted) events come with incremental reads. */
  deleted: boolean;
  title: string;
  /** Null for all-day events. */
  start: Date | null;
  end: Date | null;
  allDay: boolean;
  /** An all-day event's first day (`YYYY-MM-DD`); null for a timed event. */
  date: string | null;
  /** The event takes its time (Google `transparency` opaque, Graph `showAs` other than free). */
  busy: boolean;
  /** A recurring series or one of its occurrences: never synced to tasks. */
  recurring: boolean;
  /** Google's event `colorId` (null: the calendar's colour). Always null for Microsoft. */
  color: string | null;
  /** Microsoft categories; empty for Google. */
  categories: string[];
  /** The task id we tagged the event with when we created it; null for events the user made. */
  taskTag: string | null;
  /** Another sync that made the event, by its marker (see `OTHER_SYNCS`); null for the user's own. */
  otherSync: OtherSync | null;
  /** Google `etag`, Graph `changeKey`. */
  version: string;
  /** When the provider last changed the event (decides which side wins a conflict). */
  updatedAt: Date | null;
};

export type CalendarChanges = { events: CalendarEvent[]; full: boolean; nextToken: string };

/** The fields of an event we write; the settings decide colour, privacy, reminder and description. */
export type EventWrite = {
  title: string;
  /** For an all-day event (`date` set), the bounds of that day in `timeZone`; adapters write the date. */
  start: Date;
  end: Date;
  /** Set: an all-day event on this day (`YYYY-MM-DD`), a dated task's timebox. Null: a timed event. */
  date: string | null;
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

/** What a write carries besides its title and time: an event made anew where it moves keeps those. */
export type EventLook = Omit<EventWrite, 'title' | 'start' | 'end' | 'date'>;

/** The day after `date` (`YYYY-MM-DD`): an all-day event's end, which both calendars take as exclusive. */
export function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

export type WatchChannel = {
  id: string;
  /** Google's `resourceId` (needed to stop the channel); null for Graph. */
  resourceId: string | null;
  expiresAt: Date;
};

/** Whether a keyed create may repeat an earlier attempt ('repeat') or surely does not ('first'). */
export type CreateAttempt = 'first' | 'repeat';

export type CalendarTarget = {
  /**
   * Changes since `syncToken` (null: a full read of the calendar). SyncTokenExpiredError when the
   * provider refuses the token (Google 410, Graph `syncStateNotFound`): the caller reads in full.
   */
  changes(accessToken: string, calendarId: string, syncToken: string | null): Promise<CalendarChanges>;
  /**
   * Creates the event, idempotently: `clientKey` is the same on every attempt for one intended event
   * (Google event id, Graph `transactionId`), and a second attempt returns the event the first made.
   * `attempt: 'first'` says no earlier attempt with this key can have reached the provider (the key
   * was new in this run), so an adapter that must look for an earlier attempt's event (Graph, whose
   * `transactionId` is forgotten after a while) can skip that read; by default it looks.
   */
  create(
    accessToken: string,
    calendarId: string,
    clientKey: string,
    write: EventWrite,
    attempt?: CreateAttempt,
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
  /**
   * The events of the calendar between `from` and `to`, occurrences of a series one by one (Google
   * `singleEvents`, Graph `calendarView`): what "Plan my day" counts as busy. Not a sync read: no token.
   */
  eventsBetween(accessToken: string, calendarId: string, from: Date, to: Date): Promise<CalendarEvent[]>;
  /**
   * When the account's other calendars (`calendarIds`, shared ones included) are busy between `from`
   * and `to`: Google's free/busy over all of them in one call; on Microsoft, Graph having no such
   * query over a mailbox's calendars, each one's calendar view (a call per calendar, a few at a time).
   * Free events are left out; all-day ones too where the provider tells them (Google's free/busy does
   * not: an opaque all-day event there counts). A calendar gone or no longer readable (Microsoft's 404
   * or 403; Google names it with an error and no busy times) is left out and the others count; any
   * other failure fails the call.
   */
  busyElsewhere(
    accessToken: string,
    calendarIds: readonly string[],
    from: Date,
    to: Date,
  ): Promise<{ start: Date; end: Date }[]>;
  /** Deletes the event; an event already gone is not an error. */
  remove(accessToken: string, calendarId: string, eventId: string): Promise<void>;
  /**
   * Moves a linked event to another calendar of the account (the user chose another calendar): Google's
   * `events.move` keeps the event; Graph has no move between calendars, so the event is made anew there
   * with a keyed create (`clientKey`, the same on every attempt) carrying `look`, then deleted in the
   * old one. Idempotent: an event a crashed attempt moved already is found in `toCalendarId`. Null
   * when the event is in neither calendar.
   */
  move(
    accessToken: string,
    move: { fromCalendarId: string; toCalendarId: string; eventId: string; clientKey: string },
    look: EventLook,
  ): Promise<CalendarEvent | null>;
  /**
   * The event a keyed `create` with `clientKey` (for `taskId`) made in the calendar, without making
   * one: null when no attempt got through there (or the event was deleted or moved away since).
   */
  findCreated(
    accessToken: string,
    calendarId: string,
    clientKey: string,
    taskId: string,
  ): Promise<CalendarEvent | null>;
  /** Push notifications for changes in the calendar (Google watch channel, Graph subscription). */
  watch(
    accessToken: string,
    calendarId: string,
    channel: { id: string; address: string; secret: string; ttlSeconds: number },
  ): Promise<WatchChannel>;
  /** Stops a channel; one already gone is not an error. */
  stopWatch(accessToken: string, channel: WatchChannel): Promise<void>;
  /**
   * Extends a live channel to `ttlSeconds` from now, in place (Graph: `PATCH` of the subscription's
   * expiry, which also reauthorizes it, so the change notifications a `reauthorizationRequired` paused
   * flow again); null when the provider no longer has it (expired, removed). Absent where a channel
   * cannot be extended (Google): a new one is opened instead.
   */
  renewWatch?(accessToken: string, channel: WatchChannel, ttlSeconds: number): Promise<WatchChannel | null>;
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
