import { decodeDerivedId, derivedId, exchangeId, iCalUId, newChangeKey } from './microsoft.ids.ts';
import { occurrenceStarts, type Recurrence } from './microsoft.recurrence.ts';
import { formatWallClock } from './microsoft.time.ts';

export type EventBody = { contentType: 'text' | 'html'; content: string };
export type ExtendedProperty = { id: string; value: string };

/** What the client may set on an event; everything else is computed. */
export type EventFields = {
  subject: string;
  body: EventBody;
  start: number;
  end: number;
  startTimeZone: string;
  endTimeZone: string;
  /** IANA zone of the start, used to expand series and to test all-day midnights. */
  zone: string;
  isAllDay: boolean;
  categories: string[];
  sensitivity: string;
  showAs: string;
  importance: string;
  isReminderOn: boolean;
  reminderMinutesBeforeStart: number;
  location: { displayName: string };
  recurrence: Recurrence | null;
  singleValueExtendedProperties: ExtendedProperty[];
};

export type StoredEvent = EventFields & {
  id: string;
  userId: string;
  calendarId: string;
  transactionId: string | null;
  cancelledDates: string[];
  changeKey: string;
  iCalUId: string;
  createdAt: number;
  lastModifiedAt: number;
};

/** One row of a calendar view: a single event, or one occurrence of a series. */
export type EventInstance = {
  id: string;
  event: StoredEvent;
  type: 'singleInstance' | 'seriesMaster' | 'occurrence';
  start: number;
  end: number;
};

export type ChangeType = 'created' | 'updated' | 'deleted';

export type EventChange = {
  seq: number;
  userId: string;
  calendarId: string;
  eventId: string;
  changeType: ChangeType;
  /** Occurrence ids the series had before this change (to report vanished occurrences as removed). */
  previousOccurrenceIds: string[];
  /** The stored fields an update changed; `all` for a create (what a partial delta item may carry). */
  changedFields: string[] | 'all';
};

const HORIZON_MS = 2 * 366 * 24 * 3600 * 1000;

/** One calendar's events by id, in the order they were made, and its changes, oldest first. */
type CalendarRecords = { events: Map<string, StoredEvent>; changes: EventChange[] };

/**
 * Events and their change log, kept by user and calendar as well, so that a request reads its calendar's
 * records without going through every user's (the scale benchmark seeds thousands of mailboxes).
 */
export class EventStore {
  /** Every live event by id, in the order made (lookups by id, and the state view). */
  #events = new Map<string, StoredEvent>();
  /** By user id, then calendar id. */
  #calendars = new Map<string, Map<string, CalendarRecords>>();
  #changeCount = 0;
  #seq = 0;
  #listeners: ((change: EventChange, event: StoredEvent) => void)[] = [];

  onChange(listener: (change: EventChange, event: StoredEvent) => void): void {
    this.#listeners.push(listener);
  }

  get seq(): number {
    return this.#seq;
  }

  create(userId: string, calendarId: string, fields: EventFields, transactionId: string | null): StoredEvent {
    const now = Date.now();
    const event: StoredEvent = {
      ...fields,
      id: exchangeId(),
      userId,
      calendarId,
      transactionId,
      cancelledDates: [],
      changeKey: newChangeKey(),
      iCalUId: iCalUId(),
      createdAt: now,
      lastModifiedAt: now,
    };
    this.#events.set(event.id, event);
    this.#recordsOf(userId, calendarId).events.set(event.id, event);
    this.#record(event, 'created', [], 'all');
    return event;
  }

  /** The event a create with this transactionId made in this calendar since `sinceMs`, if any. */
  byTransactionId(
    userId: string,
    calendarId: string,
    transactionId: string,
    sinceMs: number,
  ): StoredEvent | undefined {
    for (const event of this.#calendars.get(userId)?.get(calendarId)?.events.values() ?? []) {
      if (event.transactionId === transactionId && event.createdAt >= sinceMs) return event;
    }
    return undefined;
  }

  get(userId: string, id: string): StoredEvent | undefined {
    const event = this.#events.get(id);
    return event?.userId === userId ? event : undefined;
  }

  /** An event or an occurrence by id. */
  instance(userId: string, id: string): EventInstance | undefined {
    const event = this.get(userId, id);
    if (event) {
      const type = event.recurrence ? 'seriesMaster' : 'singleInstance';
      return { id, event, type, start: event.start, end: event.end };
    }
    const [masterId, date] = (decodeDerivedId(id) ?? '').split('|');
    const master = masterId ? this.get(userId, masterId) : undefined;
    if (!master || !date) return undefined;
    return this.occurrences(master, Date.parse(`${date}T00:00:00Z`) + 2 * 24 * 3600 * 1000).find(
      (occurrence) => occurrence.id === id,
    );
  }

  update(event: StoredEvent, fields: Partial<EventFields & { cancelledDates: string[] }>): StoredEvent {
    const previous = this.#occurrenceIds(event);
    const changed = Object.entries(fields)
      .filter(([key, value]) => JSON.stringify(event[key as keyof StoredEvent]) !== JSON.stringify(value))
      .map(([key]) => key);
    Object.assign(event, fields, { changeKey: newChangeKey(), lastModifiedAt: Date.now() });
    this.#record(event, 'updated', previous, changed);
    return event;
  }

  delete(event: StoredEvent): void {
    const previous = this.#occurrenceIds(event);
    this.#events.delete(event.id);
    this.#calendars.get(event.userId)?.get(event.calendarId)?.events.delete(event.id);
    this.#record(event, 'deleted', previous, 'all');
  }

  /**
   * The user moves the event to another calendar of their mailbox, as Outlook does: the item gets a new
   * id there and is gone from the calendar it left (a `deleted` change there, `created` here), everything
   * else kept, its extended properties and transaction id too unless `dropProperties`
   * (docs/provider-facts.md §11).
   */
  move(event: StoredEvent, calendarId: string, dropProperties = false): StoredEvent {
    this.delete(event);
    const moved: StoredEvent = {
      ...event,
      id: exchangeId(),
      calendarId,
      changeKey: newChangeKey(),
      lastModifiedAt: Date.now(),
      ...(dropProperties ? { singleValueExtendedProperties: [], transactionId: null } : {}),
    };
    this.#events.set(moved.id, moved);
    this.#recordsOf(moved.userId, calendarId).events.set(moved.id, moved);
    this.#record(moved, 'created', [], 'all');
    return moved;
  }

  /** A stored event (not an occurrence) by id, whoever's it is. */
  byId(id: string): StoredEvent | undefined {
    return this.#events.get(id);
  }

  /** Deleting one occurrence cancels that date in the series (a change of the series master). */
  cancelOccurrence(occurrence: EventInstance): void {
    const date = formatWallClock(occurrence.start, occurrence.event.zone).slice(0, 10);
    this.update(occurrence.event, { cancelledDates: [...occurrence.event.cancelledDates, date] });
  }

  list(userId: string, calendarId: string): StoredEvent[] {
    return [...(this.#calendars.get(userId)?.get(calendarId)?.events.values() ?? [])];
  }

  /** Single events and occurrences overlapping [from, to), by start time. */
  instancesInWindow(userId: string, calendarId: string, from: number, to: number): EventInstance[] {
    return this.list(userId, calendarId)
      .flatMap((event) => this.expand(event, to))
      .filter((instance) => overlaps(instance, from, to))
      .sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
  }

  /** The rows an event contributes to calendar views: itself, or its occurrences up to `until`. */
  expand(event: StoredEvent, until: number): EventInstance[] {
    if (!event.recurrence)
      return [{ id: event.id, event, type: 'singleInstance', start: event.start, end: event.end }];
    return this.occurrences(event, until);
  }

  occurrences(master: StoredEvent, until: number): EventInstance[] {
    if (!master.recurrence) return [];
    const duration = master.end - master.start;
    const cancelled = new Set(master.cancelledDates);
    return occurrenceStarts(master.recurrence, master.start, master.zone, until, cancelled).map((start) => ({
      id: derivedId(`${master.id}|${formatWallClock(start, master.zone).slice(0, 10)}`),
      event: master,
      type: 'occurrence' as const,
      start,
      end: start + duration,
    }));
  }

  /** Changes after `seq` to one calendar, the last one per event, in the order they happened. */
  changesSince(userId: string, calendarId: string, seq: number): EventChange[] {
    const latest = new Map<string, EventChange>();
    const changes = this.#calendars.get(userId)?.get(calendarId)?.changes ?? [];
    for (let index = firstAfter(changes, seq); index < changes.length; index += 1) {
      const change = changes[index] as EventChange;
      const earlier = latest.get(change.eventId);
      const previousOccurrenceIds = [
        ...(earlier?.previousOccurrenceIds ?? []),
        ...change.previousOccurrenceIds,
      ];
      const changedFields =
        earlier === undefined
          ? change.changedFields
          : earlier.changedFields === 'all' || change.changedFields === 'all'
            ? 'all'
            : [...new Set([...earlier.changedFields, ...change.changedFields])];
      latest.delete(change.eventId);
      latest.set(change.eventId, { ...change, previousOccurrenceIds, changedFields });
    }
    return [...latest.values()];
  }

  /** The calendar's records, made empty on first use. */
  #recordsOf(userId: string, calendarId: string): CalendarRecords {
    let ofUser = this.#calendars.get(userId);
    if (!ofUser) {
      ofUser = new Map();
      this.#calendars.set(userId, ofUser);
    }
    let records = ofUser.get(calendarId);
    if (!records) {
      records = { events: new Map(), changes: [] };
      ofUser.set(calendarId, records);
    }
    return records;
  }

  #occurrenceIds(event: StoredEvent): string[] {
    return this.occurrences(event, Math.max(Date.now(), event.start) + HORIZON_MS).map((o) => o.id);
  }

  #record(
    event: StoredEvent,
    changeType: ChangeType,
    previousOccurrenceIds: string[],
    changedFields: string[] | 'all',
  ): void {
    this.#seq += 1;
    const change: EventChange = {
      seq: this.#seq,
      userId: event.userId,
      calendarId: event.calendarId,
      eventId: event.id,
      changeType,
      previousOccurrenceIds,
      changedFields,
    };
    this.#recordsOf(event.userId, event.calendarId).changes.push(change);
    this.#changeCount += 1;
    for (const listener of this.#listeners) listener(change, event);
  }

  reset(): void {
    this.#events.clear();
    this.#calendars.clear();
    this.#changeCount = 0;
  }

  snapshot() {
    return { events: [...this.#events.values()], changeLogLength: this.#changeCount, seq: this.#seq };
  }
}

/** The index of the first change after `seq` in a log ordered by seq (its length when there is none). */
function firstAfter(changes: EventChange[], seq: number): number {
  let low = 0;
  let high = changes.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((changes[middle] as EventChange).seq <= seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function overlaps(instance: { start: number; end: number }, from: number, to: number): boolean {
  // A zero-length event at the window start still belongs to it.
  return (
    instance.start < to &&
    (instance.end > from || (instance.start === instance.end && instance.start >= from))
  );
}
