import { escapeHtml } from '../shared/html-page.ts';
import type { EventBody, EventInstance, ExtendedProperty } from './microsoft.event-store.ts';
import type { MailboxUser } from './microsoft.mailbox-store.ts';
import { recurrenceJson } from './microsoft.recurrence.ts';
import { formatTimestamp, formatWallClock, resolveTimeZone } from './microsoft.time.ts';

export type RenderOptions = {
  user: MailboxUser;
  /** `Prefer: outlook.timezone`; UTC when absent or unknown. */
  timeZone?: string | undefined;
  /** `Prefer: outlook.body-content-type`; Outlook returns HTML when absent. */
  bodyContentType?: 'text' | 'html' | undefined;
  /** `$expand=singleValueExtendedProperties(...)`: which properties to include. */
  extendedProperties?: ((property: ExtendedProperty) => boolean) | undefined;
};

/** Outlook keeps bodies as HTML: text comes back wrapped unless the client prefers text. */
export function renderBody(body: EventBody, preferred: 'text' | 'html' | undefined): EventBody {
  const wanted = preferred ?? 'html';
  if (body.content === '' || body.contentType === wanted)
    return { contentType: wanted, content: body.content };
  if (wanted === 'html') {
    const lines = body.content.split(/\r?\n/).map((line) => `<div>${escapeHtml(line) || '<br>'}</div>`);
    return {
      contentType: 'html',
      content: `<html>\r\n<head>\r\n<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\r\n</head>\r\n<body>\r\n${lines.join('\r\n')}\r\n</body>\r\n</html>\r\n`,
    };
  }
  return { contentType: 'text', content: htmlToText(body.content) };
}

export function htmlToText(html: string): string {
  return html
    .replace(/<head[\s\S]*?<\/head>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(div|p|li|h\d)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\r/g, '')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

function dateTimeTimeZone(ms: number, isAllDay: boolean, eventZone: string, zoneName: string, zone: string) {
  // All-day events float: midnight of the same date, whatever zone the client asks for.
  const dateTime = isAllDay
    ? `${formatWallClock(ms, eventZone).slice(0, 10)}T00:00:00.0000000`
    : formatWallClock(ms, zone);
  return { dateTime, timeZone: zoneName };
}

export function eventJson(instance: EventInstance, options: RenderOptions): Record<string, unknown> {
  const event = instance.event;
  const zone = options.timeZone ? resolveTimeZone(options.timeZone) : undefined;
  const zoneName = zone && options.timeZone ? options.timeZone : 'UTC';
  const outputZone = zone ?? 'UTC';
  const body = renderBody(event.body, options.bodyContentType);
  const preview = (
    event.body.contentType === 'html' ? htmlToText(event.body.content) : event.body.content
  ).slice(0, 255);
  const isOccurrence = instance.type === 'occurrence';
  const organizer = { emailAddress: { name: options.user.displayName, address: options.user.email } };
  const json: Record<string, unknown> = {
    '@odata.etag': `W/"${event.changeKey}"`,
    id: instance.id,
    createdDateTime: formatTimestamp(event.createdAt),
    lastModifiedDateTime: formatTimestamp(event.lastModifiedAt),
    changeKey: event.changeKey,
    categories: [...event.categories],
    transactionId: event.transactionId,
    originalStartTimeZone: event.startTimeZone,
    originalEndTimeZone: event.endTimeZone,
    iCalUId: event.iCalUId,
    reminderMinutesBeforeStart: event.reminderMinutesBeforeStart,
    isReminderOn: event.isReminderOn,
    hasAttachments: false,
    subject: event.subject,
    bodyPreview: preview,
    importance: event.importance,
    sensitivity: event.sensitivity,
    isAllDay: event.isAllDay,
    isCancelled: false,
    isOrganizer: true,
    responseRequested: true,
    seriesMasterId: isOccurrence ? event.id : null,
    showAs: event.showAs,
    type: instance.type,
    webLink: `https://outlook.live.com/owa/?itemid=${encodeURIComponent(instance.id)}&exvsurl=1&path=/calendar/item`,
    onlineMeetingUrl: null,
    isOnlineMeeting: false,
    onlineMeetingProvider: 'unknown',
    allowNewTimeProposals: true,
    isDraft: false,
    hideAttendees: false,
    responseStatus: { response: 'organizer', time: '0001-01-01T00:00:00Z' },
    body,
    start: dateTimeTimeZone(instance.start, event.isAllDay, event.zone, zoneName, outputZone),
    end: dateTimeTimeZone(instance.end, event.isAllDay, event.zone, zoneName, outputZone),
    location: {
      displayName: event.location.displayName,
      locationType: 'default',
      uniqueIdType: 'unknown',
      address: {},
      coordinates: {},
    },
    locations: event.location.displayName
      ? [{ displayName: event.location.displayName, locationType: 'default', uniqueIdType: 'unknown' }]
      : [],
    recurrence: !isOccurrence && event.recurrence ? recurrenceJson(event.recurrence) : null,
    attendees: [],
    organizer,
    onlineMeeting: null,
  };
  if (options.extendedProperties) {
    const matching = event.singleValueExtendedProperties.filter(options.extendedProperties);
    if (matching.length)
      json.singleValueExtendedProperties = matching.map((p) => ({ id: p.id, value: p.value }));
  }
  return json;
}
