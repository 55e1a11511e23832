import { z } from 'zod';
import { badRequest, GraphError } from './microsoft.errors.ts';
import type { EventFields, StoredEvent } from './microsoft.event-store.ts';
import { recurrenceSchema } from './microsoft.recurrence.ts';
import { isMidnight, resolveTimeZone, toInstant } from './microsoft.time.ts';

const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
const caseInsensitive = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(lower, z.enum(values));

const dateTimeTimeZone = z.object({ dateTime: z.string(), timeZone: z.string().optional() });

/** Writable event properties. Graph rejects unknown properties, so the object is strict. */
export const eventInputSchema = z
  .object({
    subject: z.string().nullable(),
    body: z.object({
      contentType: caseInsensitive(['text', 'html']).optional(),
      content: z.string().nullable(),
    }),
    start: dateTimeTimeZone,
    end: dateTimeTimeZone,
    isAllDay: z.boolean(),
    categories: z.array(z.string()),
    sensitivity: caseInsensitive(['normal', 'personal', 'private', 'confidential']),
    showAs: caseInsensitive(['free', 'tentative', 'busy', 'oof', 'workingelsewhere', 'unknown']),
    importance: caseInsensitive(['low', 'normal', 'high']),
    isReminderOn: z.boolean(),
    reminderMinutesBeforeStart: z.number().int(),
    location: z.object({ displayName: z.string().nullish() }).passthrough(),
    recurrence: recurrenceSchema.nullable(),
    transactionId: z.string().max(255).nullable(),
    singleValueExtendedProperties: z.array(z.object({ id: z.string().min(1), value: z.string() })),
    // Accepted and not modelled by the emulator.
    attendees: z.array(z.unknown()),
    locations: z.array(z.unknown()),
    isOnlineMeeting: z.boolean(),
    onlineMeetingProvider: z.string(),
    allowNewTimeProposals: z.boolean(),
    responseRequested: z.boolean(),
    hideAttendees: z.boolean(),
  })
  .partial()
  .strict();
export type EventInput = z.infer<typeof eventInputSchema>;

/** Parses a create/update body, answering like Graph: unknown properties and wrong types are 400s. */
export function parseEventInput(body: unknown): EventInput {
  const withoutAnnotations =
    typeof body === 'object' && body !== null
      ? Object.fromEntries(Object.entries(body).filter(([key]) => !key.startsWith('@odata.')))
      : body;
  const parsed = eventInputSchema.safeParse(withoutAnnotations);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    throw badRequest(
      'RequestBodyRead',
      `The property '${issue.keys[0]}' does not exist on type 'microsoft.graph.event'. Make sure to only use property names that are defined by the type or mark the type as open type.`,
    );
  }
  throw badRequest(
    'RequestBodyRead',
    `Invalid value for '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'bad request'}`,
  );
}

const SHOW_AS: Record<string, string> = { workingelsewhere: 'workingElsewhere' };

/** A dateTimeTimeZone as an instant; Graph's TimeZoneNotSupportedException for a zone it does not know. */
export function dateTimeInstant(value: { dateTime: string; timeZone?: string | undefined }) {
  const name = value.timeZone ?? '';
  const zone = resolveTimeZone(name);
  if (!zone) {
    throw new GraphError(
      400,
      'TimeZoneNotSupportedException',
      `A valid TimeZone value must be specified. The following TimeZone value is not supported: '${name}'.`,
    );
  }
  const ms = toInstant(value.dateTime, zone);
  if (ms === undefined)
    throw badRequest('ErrorInvalidRequest', `The value '${value.dateTime}' is not a valid dateTime.`);
  return { ms, name, zone };
}

/** The stored fields after applying `input` to `existing` (or to the defaults of a new event). */
export function resolveEventFields(input: EventInput, existing?: StoredEvent): EventFields {
  if (!existing && (!input.start || !input.end)) {
    throw badRequest('ErrorInvalidRequest', 'An event must have a start and an end.');
  }
  const start = input.start ? dateTimeInstant(input.start) : undefined;
  const end = input.end ? dateTimeInstant(input.end) : undefined;
  const fields: EventFields = {
    subject: input.subject === undefined ? (existing?.subject ?? '') : (input.subject ?? ''),
    body: input.body
      ? {
          contentType: (input.body.contentType ?? 'text') as 'text' | 'html',
          content: input.body.content ?? '',
        }
      : (existing?.body ?? { contentType: 'html', content: '' }),
    start: start?.ms ?? existing?.start ?? 0,
    end: end?.ms ?? existing?.end ?? 0,
    startTimeZone: start?.name ?? existing?.startTimeZone ?? 'UTC',
    endTimeZone: end?.name ?? existing?.endTimeZone ?? 'UTC',
    zone: start?.zone ?? existing?.zone ?? 'UTC',
    isAllDay: input.isAllDay ?? existing?.isAllDay ?? false,
    categories: input.categories ? [...new Set(input.categories)] : (existing?.categories ?? []),
    sensitivity: input.sensitivity ?? existing?.sensitivity ?? 'normal',
    showAs: input.showAs ? (SHOW_AS[input.showAs] ?? input.showAs) : (existing?.showAs ?? 'busy'),
    importance: input.importance ?? existing?.importance ?? 'normal',
    isReminderOn: input.isReminderOn ?? existing?.isReminderOn ?? true,
    reminderMinutesBeforeStart:
      input.reminderMinutesBeforeStart ?? existing?.reminderMinutesBeforeStart ?? 15,
    location: input.location
      ? { displayName: input.location.displayName ?? '' }
      : (existing?.location ?? { displayName: '' }),
    recurrence: input.recurrence === undefined ? (existing?.recurrence ?? null) : input.recurrence,
    singleValueExtendedProperties: mergeExtendedProperties(
      existing?.singleValueExtendedProperties ?? [],
      input.singleValueExtendedProperties ?? [],
    ),
  };
  if (fields.end < fields.start) {
    throw badRequest('ErrorInvalidRequest', 'The start time must be earlier than or equal to the end time.');
  }
  if (
    fields.isAllDay &&
    (!isMidnight(fields.start, fields.zone) ||
      !isMidnight(fields.end, fields.zone) ||
      fields.end === fields.start)
  ) {
    throw badRequest(
      'ErrorInvalidRequest',
      'An all-day event must start and end at midnight and last at least one day.',
    );
  }
  return fields;
}

function mergeExtendedProperties(
  existing: EventFields['singleValueExtendedProperties'],
  updates: EventFields['singleValueExtendedProperties'],
) {
  const merged = new Map(existing.map((property) => [property.id.toLowerCase(), property]));
  for (const property of updates)
    merged.set(property.id.toLowerCase(), { id: property.id, value: property.value });
  return [...merged.values()];
}
