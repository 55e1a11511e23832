import type { FastifyRequest } from 'fastify';
import { accessDenied, badRequest, GraphError, notFound } from './microsoft.errors.ts';
import type { RenderOptions } from './microsoft.event-mapper.ts';
import type { EventInstance, ExtendedProperty, StoredEvent } from './microsoft.event-store.ts';
import { type Calendar, canEditCalendar, type MailboxUser } from './microsoft.mailbox-store.ts';
import { preferences } from './microsoft.odata.ts';
import { toInstant } from './microsoft.time.ts';

const WELL_FORMED_ID = /^A[AQ]Mk[A-Za-z0-9_\-+/]+=*$/;

/** Graph tells a malformed id (400) from a well-formed one that does not exist (404). */
export function checkId(id: string): void {
  if (!WELL_FORMED_ID.test(id)) throw new GraphError(400, 'ErrorInvalidIdMalformed', 'Id is malformed.');
}

/** `If-Match: W/"<changeKey>"` (or `*`) on PATCH and DELETE. */
export function checkIfMatch(request: FastifyRequest, event: StoredEvent): void {
  const ifMatch = request.headers['if-match'];
  if (!ifMatch || ifMatch === '*') return;
  const accepted = ifMatch.split(',').map((tag) =>
    tag
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1'),
  );
  if (!accepted.includes(event.changeKey)) {
    throw new GraphError(
      412,
      'ErrorIrresolvableConflict',
      'The send or update operation could not be performed because the change key passed in the request does not match the current change key for the item.',
    );
  }
}

/** `$expand=singleValueExtendedProperties($filter=id eq '…')`, the only expansion the emulator knows. */
export function extendedPropertyExpansion(
  expand: string | undefined,
): ((p: ExtendedProperty) => boolean) | undefined {
  if (!expand) return undefined;
  const match = /^singleValueExtendedProperties(?:\(\$filter=id eq '((?:[^']|'')*)'\))?$/i.exec(
    expand.trim(),
  );
  if (!match)
    throw badRequest(
      'BadRequest',
      `Parsing OData Select and Expand failed: Could not find a property named '${expand.split('(')[0]}' on type 'microsoft.graph.event'.`,
    );
  const wanted = match[1]?.replaceAll("''", "'").toLowerCase();
  return (property) => wanted === undefined || property.id.toLowerCase() === wanted;
}

export function renderOptions(request: FastifyRequest, user: MailboxUser, expand?: string): RenderOptions {
  const prefer = preferences(request);
  return {
    user,
    timeZone: prefer.timeZone,
    bodyContentType: prefer.bodyContentType,
    extendedProperties: extendedPropertyExpansion(expand),
  };
}

/** `startDateTime`/`endDateTime` of a calendar view (ISO 8601, UTC when no offset is given). */
export function viewWindow(options: Record<string, string>): { from: number; to: number } {
  const rawStart = options.startdatetime;
  const rawEnd = options.enddatetime;
  if (!rawStart || !rawEnd) {
    throw badRequest(
      'ErrorInvalidParameter',
      'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.',
    );
  }
  const from = toInstant(rawStart, 'UTC');
  const to = toInstant(rawEnd, 'UTC');
  if (from === undefined || to === undefined) {
    throw badRequest(
      'ErrorInvalidParameter',
      `The parameter 'startDateTime' or 'endDateTime' is not a valid date time.`,
    );
  }
  if (to < from) throw badRequest('ErrorInvalidParameter', 'The end of the time window is before its start.');
  return { from, to };
}

export function requireInstance(instance: EventInstance | undefined, calendarId?: string): EventInstance {
  if (!instance || (calendarId !== undefined && instance.event.calendarId !== calendarId)) throw notFound();
  return instance;
}

/** An event write where the user can only read the calendar (shared with them so) is refused. */
export function requireEditable(calendar: Calendar | undefined): void {
  if (calendar && !canEditCalendar(calendar)) throw accessDenied();
}
