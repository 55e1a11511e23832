import { createHash } from 'node:crypto';
import { ProviderRequestError } from '#server/domain/integrations/integration-providers.port.ts';
import { type CalendarEvent, dayAfter, type EventWrite } from '#server/sync/calendar-target.port.ts';
import { deletedEvent } from '#server/sync/plan/snapshots.ts';
import type { GraphEvent } from './microsoft-calendar-events.schemas.ts';
import { fromGraphDateTime, toGraphDateTime, writableZone } from './microsoft-date-time.ts';

/**
 * What we store on events we create, as named single-value extended properties (MAPI string
 * properties in our own property set), never shown to the user: the task id, readable with `$expand`
 * on GET; and the create key (the transaction id), to find a create's event by `$filter` later.
 */
const PROPERTY_SET = '{66f5a359-4659-4830-9070-00047ec6ac6e}';
export const TASK_TAG_PROPERTY = `String ${PROPERTY_SET} Name TimeboxerTaskId`;
export const CREATE_KEY_PROPERTY = `String ${PROPERTY_SET} Name TimeboxerCreateKey`;
export const TASK_TAG_EXPANSION = `singleValueExtendedProperties($filter=id eq '${TASK_TAG_PROPERTY}')`;

const TRANSACTION_PREFIX = 'timeboxer:';
const SAFE_KEY = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * `timeboxer:<task id>:<client key>`, in characters that need no escaping in a URL or an OData
 * string. Graph dedupes creates by `transactionId` for a while, and delta returns it while it allows
 * no `$expand`: so the id both makes a quickly retried create return the first event and tells us, in
 * a delta round, which task an event mirrors. The same (clientKey, taskId) gives the same id.
 */
export function transactionIdFor(clientKey: string, taskId: string): string {
  const task = encodeURIComponent(taskId).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  if (task.length > 200) throw new ProviderRequestError('The task id is too long to tag');
  const key = SAFE_KEY.test(clientKey)
    ? clientKey
    : `#${createHash('sha256').update(clientKey).digest('base64url')}`;
  return `${TRANSACTION_PREFIX}${task}:${key}`;
}

export function taskIdFromTransactionId(transactionId: string | null | undefined): string | null {
  if (!transactionId?.startsWith(TRANSACTION_PREFIX)) return null;
  const rest = transactionId.slice(TRANSACTION_PREFIX.length);
  const end = rest.indexOf(':');
  if (end <= 0) return null;
  try {
    return decodeURIComponent(rest.slice(0, end));
  } catch {
    return null;
  }
}

/** The `$filter` that finds the event a create with this transaction id made (no quotes to escape). */
export const createKeyFilter = (transactionId: string) =>
  `singleValueExtendedProperties/any(ep: ep/id eq '${CREATE_KEY_PROPERTY}' and ep/value eq '${transactionId}')`;

const RECURRING_TYPES = new Set(['occurrence', 'exception', 'seriesMaster']);
const isRecurring = (item: GraphEvent) =>
  (!!item.type && item.type !== 'singleInstance') || !!item.seriesMasterId;

/** What a delta item must carry to be mapped without reading the whole event. */
const NEEDED = ['subject', 'start', 'end', 'isAllDay', 'type', 'categories', 'changeKey'] as const;

/**
 * Delta updates may carry only the properties that changed. Occurrences of a series come thin too, but
 * they are never synced, so they are not worth a read each.
 */
export function needsFullRead(item: GraphEvent): boolean {
  if (item['@removed'] || item.isCancelled) return false;
  if (RECURRING_TYPES.has(item.type ?? '') || item.seriesMasterId) return false;
  return NEEDED.some((key) => item[key] === undefined);
}

function taskTag(item: GraphEvent): string | null {
  const fromTransaction = taskIdFromTransactionId(item.transactionId);
  if (fromTransaction) return fromTransaction;
  const wanted = TASK_TAG_PROPERTY.toLowerCase();
  const property = item.singleValueExtendedProperties?.find((p) => p.id.toLowerCase() === wanted);
  return property?.value || null;
}

/** Our view of a Graph event; start and end are read as UTC (we ask Graph for UTC). */
export function toCalendarEvent(item: GraphEvent): CalendarEvent {
  // A cancelled meeting stays in the calendar until removed, but it is no longer an appointment.
  if (item['@removed'] || item.isCancelled) return deletedEvent(item.id);
  const allDay = item.isAllDay === true;
  const recurring = isRecurring(item);
  const start = !allDay && item.start ? fromGraphDateTime(item.start) : null;
  const end = !allDay && item.end ? fromGraphDateTime(item.end) : null;
  if (!allDay && !recurring && (!start || !end)) {
    throw new ProviderRequestError('A Microsoft event has no readable start or end');
  }
  const modified = item.lastModifiedDateTime ? Date.parse(item.lastModifiedDateTime) : Number.NaN;
  return {
    id: item.id,
    deleted: false,
    title: item.subject ?? '',
    start,
    end,
    allDay,
    date: allDay && item.start ? item.start.dateTime.slice(0, 10) : null,
    // Graph's default is busy.
    busy: (item.showAs ?? 'busy').toLowerCase() !== 'free',
    recurring,
    color: null,
    categories: item.categories ?? [],
    taskTag: taskTag(item),
    // Todoist's own calendar integration writes only to Google Calendar.
    otherSync: null,
    version: item.changeKey ?? '',
    updatedAt: Number.isNaN(modified) ? null : new Date(modified),
  };
}

/** A time, or a whole day: all-day events float, at midnight of their dates (the end's exclusive). */
function timingOf(write: EventWrite, zone: string) {
  if (write.date === null) {
    return {
      start: toGraphDateTime(write.start, zone),
      end: toGraphDateTime(write.end, zone),
      isAllDay: false,
    };
  }
  const midnight = (date: string) => ({ dateTime: `${date}T00:00:00.0000000`, timeZone: zone });
  return { start: midnight(write.date), end: midnight(dayAfter(write.date)), isAllDay: true };
}

/** A read event's time or day, to write it elsewhere (null: neither can be read). */
export function timingOfRead(event: CalendarEvent): Pick<EventWrite, 'start' | 'end' | 'date'> | null {
  if (event.date !== null) {
    const bound = (date: string) => new Date(`${date}T00:00:00Z`);
    return { start: bound(event.date), end: bound(dayAfter(event.date)), date: event.date };
  }
  return event.start && event.end ? { start: event.start, end: event.end, date: null } : null;
}

/** The fields we own on an event, as a PATCH body; the body is cleared when there is no description. */
export function eventFields(
  write: EventWrite,
  zone = writableZone([write.start, write.end], write.timeZone),
) {
  const timing = { subject: write.title, ...timingOf(write, zone) };
  // An event the user made keeps everything but its title and time (nothing they wrote is lost).
  if (!write.appearance) return timing;
  return {
    ...timing,
    categories: write.category ? [write.category] : [],
    sensitivity: write.private ? 'private' : 'normal',
    isReminderOn: write.reminderMinutes !== null,
    ...(write.reminderMinutes !== null ? { reminderMinutesBeforeStart: write.reminderMinutes } : {}),
    body: { contentType: 'text', content: write.description ?? '' },
  };
}

/** A create body: our fields, the transaction id and our properties; no body without a description. */
export function newEventFields(write: EventWrite, transactionId: string, zone?: string) {
  const { body, ...fields } = { body: undefined, ...eventFields(write, zone) };
  return {
    ...fields,
    ...(write.description !== null && body ? { body } : {}),
    transactionId,
    singleValueExtendedProperties: [
      { id: TASK_TAG_PROPERTY, value: write.taskId },
      { id: CREATE_KEY_PROPERTY, value: transactionId },
    ],
  };
}
