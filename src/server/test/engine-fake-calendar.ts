import type { Clock } from '#server/domain/shared/clock.port.ts';
import {
  type CalendarEvent,
  type CalendarTarget,
  type CreateAttempt,
  EventChangedError,
  type EventWrite,
  SyncTokenExpiredError,
} from '#server/sync/calendar-target.port.ts';
import { blankEvent } from '#server/sync/plan/snapshots.ts';
import { faults, httpError, withFault } from './engine-fake-faults.ts';

/**
 * A calendar faked for the sync engine's unit tests, with the promises of the CalendarTarget port
 * (incremental reads by sync token, keyed creates, guarded updates), the user's own edits, and faults
 * to inject.
 */

type StoredEvent = CalendarEvent & { calendarId: string; changedAt: number };
type CalendarMethod = 'changes' | 'create' | 'update' | 'remove' | 'eventsBetween';

export type FakeCalendar = ReturnType<typeof fakeCalendar>;

/**
 * A calendar account in memory. A full read lists the calendar's live events; an incremental one every
 * event changed since the token, deleted ones too. A keyed create made once answers with its event
 * again; an update naming a version the event no longer has is refused (EventChangedError); an update
 * of an event gone is a 404.
 */
export function fakeCalendar(clock: Clock) {
  const events = new Map<string, StoredEvent>();
  const byKey = new Map<string, string>();
  const calls: {
    method: CalendarMethod;
    syncToken?: string | null;
    key?: string;
    attempt?: CreateAttempt;
    eventId?: string;
    ifVersion?: string;
  }[] = [];
  const injected = faults<CalendarMethod>();
  let seq = 0;
  let ids = 0;
  let versions = 0;
  let tokensExpired = false;
  const touch = (event: StoredEvent) => {
    seq += 1;
    versions += 1;
    event.changedAt = seq;
    event.version = `v${versions}`;
    event.updatedAt = clock();
  };
  const snapshot = ({ calendarId: _calendar, changedAt: _changed, ...event }: StoredEvent): CalendarEvent =>
    structuredClone(event);
  const writeFields = (write: EventWrite) => ({
    title: write.title,
    // An all-day event is read back without a start, by its date (as both calendars answer).
    start: write.date === null ? new Date(write.start) : null,
    end: write.date === null ? new Date(write.end) : null,
    allDay: write.date !== null,
    date: write.date,
    ...(write.appearance && {
      color: write.color === '' ? null : write.color,
      categories: write.category ? [write.category] : [],
    }),
  });
  const newEvent = (calendarId: string, fields: Partial<CalendarEvent>): StoredEvent => {
    ids += 1;
    const event: StoredEvent = { ...blankEvent(`event-${ids}`, fields), calendarId, changedAt: 0 };
    touch(event);
    events.set(event.id, event);
    return event;
  };
  const liveIn = (calendarId: string, id: string) => {
    const event = events.get(id);
    return event && !event.deleted && event.calendarId === calendarId ? event : undefined;
  };

  const target: CalendarTarget = {
    async busyElsewhere() {
      return [];
    },
    async eventsBetween(_token, calendarId, from, to) {
      calls.push({ method: 'eventsBetween', syncToken: null });
      return [...events.values()]
        .filter((event) => event.calendarId === calendarId && !event.deleted)
        .filter((event) => event.start !== null && event.end !== null && event.start < to && event.end > from)
        .map(snapshot);
    },
    async changes(_token, calendarId, syncToken) {
      calls.push({ method: 'changes', syncToken });
      return withFault(injected.take('changes'), () => {
        if (syncToken !== null && tokensExpired) throw new SyncTokenExpiredError('sync token expired');
        const full = syncToken === null;
        const since = full ? 0 : Number(syncToken);
        const read = [...events.values()].filter(
          (event) => event.calendarId === calendarId && (full ? !event.deleted : event.changedAt > since),
        );
        return { events: read.map(snapshot), full, nextToken: String(seq) };
      });
    },
    async create(_token, calendarId, clientKey, write, attempt = 'repeat') {
      calls.push({ method: 'create', key: clientKey, attempt });
      return withFault(injected.take('create'), () => {
        const made = byKey.get(clientKey);
        const existing = made ? events.get(made) : undefined;
        if (existing && existing.calendarId === calendarId) return snapshot(existing);
        const event = newEvent(calendarId, { ...writeFields(write), taskTag: write.taskId });
        byKey.set(clientKey, event.id);
        return snapshot(event);
      });
    },
    async update(_token, calendarId, eventId, write, ifVersion) {
      calls.push({ method: 'update', eventId, ...(ifVersion !== undefined && { ifVersion }) });
      return withFault(injected.take('update'), () => {
        const event = liveIn(calendarId, eventId);
        if (!event) throw httpError(404);
        if (ifVersion !== undefined && ifVersion !== event.version)
          throw new EventChangedError(`event ${eventId} is at ${event.version}, not ${ifVersion}`);
        Object.assign(event, writeFields(write));
        touch(event);
        return snapshot(event);
      });
    },
    async remove(_token, calendarId, eventId) {
      calls.push({ method: 'remove', eventId });
      await withFault(injected.take('remove'), () => {
        const event = liveIn(calendarId, eventId);
        if (!event) return;
        event.deleted = true;
        touch(event);
      });
    },
    async move(_token, move) {
      const event = liveIn(move.fromCalendarId, move.eventId) ?? liveIn(move.toCalendarId, move.eventId);
      if (!event) return null;
      event.calendarId = move.toCalendarId;
      touch(event);
      return snapshot(event);
    },
    async findCreated(_token, calendarId, clientKey, taskId) {
      const made = byKey.get(clientKey);
      const event = made ? liveIn(calendarId, made) : undefined;
      return event && event.taskTag === taskId ? snapshot(event) : null;
    },
    async watch(_token, _calendarId, channel) {
      return {
        id: channel.id,
        resourceId: null,
        expiresAt: new Date(clock().getTime() + channel.ttlSeconds * 1000),
      };
    },
    async stopWatch() {},
  };

  return {
    ...target,
    events,
    calls,
    fail: injected.add,
    /** The provider forgets every sync token (Google 410): the next incremental read is refused. */
    expireSyncTokens() {
      tokensExpired = true;
    },
    /** The user adds an event, `minutes` long (Google: no colour). */
    addEvent(calendarId: string, title: string, start: Date, minutes: number): CalendarEvent {
      return snapshot(
        newEvent(calendarId, { title, start, end: new Date(start.getTime() + minutes * 60_000) }),
      );
    },
    /** The user moves an event. */
    moveEvent(id: string, start: Date, minutes: number) {
      const event = events.get(id);
      if (!event) throw new Error(`no event ${id}`);
      Object.assign(event, { start, end: new Date(start.getTime() + minutes * 60_000) });
      touch(event);
    },
    /** The live events of a calendar. */
    live: (calendarId: string) =>
      [...events.values()].filter((event) => event.calendarId === calendarId && !event.deleted).map(snapshot),
    /** The writes (create, update, remove) the calendar was asked for. */
    writes: () => calls.filter((call) => call.method !== 'changes'),
  };
}
