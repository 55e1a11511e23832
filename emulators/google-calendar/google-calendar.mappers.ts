import { COLORS } from './google-calendar.colors.ts';
import type { RemovedCalendar, StoredCalendar, StoredEvent } from './google-calendar.store.ts';

/** The wire form of an event, fields in the order Google sends them. */
export function toWireEvent(event: StoredEvent, calendar: StoredCalendar, origin: string) {
  const { data } = event;
  return {
    kind: 'calendar#event',
    etag: event.etag,
    id: event.id,
    status: data.status,
    htmlLink: eventLink(origin, event.id, calendar.id),
    created: event.created,
    updated: event.updated,
    ...(data.summary === undefined ? {} : { summary: data.summary }),
    ...(data.description === undefined ? {} : { description: data.description }),
    ...(data.location === undefined ? {} : { location: data.location }),
    ...(data.colorId === undefined ? {} : { colorId: data.colorId }),
    creator: { email: calendar.ownerEmail, self: true },
    organizer: calendar.primary
      ? { email: calendar.id, self: true }
      : { email: calendar.id, displayName: calendar.summary, self: true },
    start: data.start,
    end: data.end,
    ...(data.recurrence ? { recurrence: data.recurrence } : {}),
    ...(event.recurringEventId ? { recurringEventId: event.recurringEventId } : {}),
    ...(event.originalStartTime ? { originalStartTime: event.originalStartTime } : {}),
    ...(data.transparency === undefined ? {} : { transparency: data.transparency }),
    ...(data.visibility === undefined ? {} : { visibility: data.visibility }),
    iCalUID: event.iCalUID,
    sequence: event.sequence,
    reminders: data.reminders,
    ...(data.extendedProperties ? { extendedProperties: data.extendedProperties } : {}),
    eventType: data.eventType,
  };
}

/** Deleted events in lists and incremental syncs carry only their identity. */
export function toWireTombstone(event: StoredEvent) {
  return {
    kind: 'calendar#event',
    etag: event.etag,
    id: event.id,
    status: 'cancelled',
    ...(event.recurringEventId ? { recurringEventId: event.recurringEventId } : {}),
    ...(event.originalStartTime ? { originalStartTime: event.originalStartTime } : {}),
  };
}

export function eventLink(origin: string, eventId: string, calendarId: string): string {
  const eid = Buffer.from(`${eventId} ${calendarId}`).toString('base64url');
  return `${origin}/calendar/event?eid=${eid}`;
}

/** What a calendar and its calendar-list entry both show. */
function calendarFields(calendar: StoredCalendar) {
  return {
    etag: calendar.etag,
    id: calendar.id,
    summary: calendar.summary,
    ...(calendar.description ? { description: calendar.description } : {}),
    ...(calendar.location ? { location: calendar.location } : {}),
    timeZone: calendar.timeZone,
  };
}

export function toCalendarListEntry(calendar: StoredCalendar) {
  const color = COLORS.calendar[calendar.colorId];
  return {
    kind: 'calendar#calendarListEntry',
    ...calendarFields(calendar),
    colorId: calendar.colorId,
    backgroundColor: color?.background,
    foregroundColor: '#000000',
    selected: true,
    accessRole: calendar.accessRole ?? 'owner',
    defaultReminders: calendar.defaultReminders,
    ...(calendar.primary
      ? {
          notificationSettings: {
            notifications: [
              { type: 'eventCreation', method: 'email' },
              { type: 'eventChange', method: 'email' },
              { type: 'eventCancellation', method: 'email' },
              { type: 'eventResponse', method: 'email' },
            ],
          },
          primary: true,
        }
      : { dataOwner: calendar.ownerEmail }),
    conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
  };
}

/** A deleted calendar in calendarList incremental syncs (and with `showDeleted`): only its identity. */
export function toDeletedCalendarListEntry(removed: RemovedCalendar) {
  return { kind: 'calendar#calendarListEntry', etag: removed.etag, id: removed.id, deleted: true };
}

export function toCalendarResource(calendar: StoredCalendar) {
  return {
    kind: 'calendar#calendar',
    ...calendarFields(calendar),
    ...(calendar.primary ? {} : { dataOwner: calendar.ownerEmail }),
    conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
  };
}
