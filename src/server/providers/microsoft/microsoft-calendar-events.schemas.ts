import { z } from 'zod';

/** Graph's `dateTimeTimeZone`: a wall-clock time without offset and the zone it is in. */
export const dateTimeTimeZoneSchema = z.object({
  dateTime: z.string().min(1),
  timeZone: z.string().nullish(),
});

/**
 * An event as Graph returns it from delta, GET, POST and PATCH. Everything is optional: delta sends
 * removals as `{id, @removed}`, and updates may carry only the properties that changed.
 */
export const graphEventSchema = z.object({
  id: z.string().min(1),
  '@removed': z.object({ reason: z.string().optional() }).optional(),
  subject: z.string().nullish(),
  start: dateTimeTimeZoneSchema.nullish(),
  end: dateTimeTimeZoneSchema.nullish(),
  isAllDay: z.boolean().nullish(),
  showAs: z.string().nullish(),
  isCancelled: z.boolean().nullish(),
  type: z.string().nullish(),
  seriesMasterId: z.string().nullish(),
  categories: z.array(z.string()).nullish(),
  changeKey: z.string().nullish(),
  lastModifiedDateTime: z.string().nullish(),
  transactionId: z.string().nullish(),
  singleValueExtendedProperties: z.array(z.object({ id: z.string(), value: z.string().nullish() })).nullish(),
});
export type GraphEvent = z.infer<typeof graphEventSchema>;

/** One page of a calendarView delta round: either a nextLink (keep paging) or a deltaLink (done). */
export const deltaPageSchema = z.object({
  value: z.array(graphEventSchema),
  '@odata.nextLink': z.string().optional(),
  '@odata.deltaLink': z.string().optional(),
});

export const eventPageSchema = z.object({ value: z.array(graphEventSchema) });

/** One page of a calendarView: events (occurrences one by one) and a nextLink while there are more. */
export const viewPageSchema = z.object({
  value: z.array(graphEventSchema),
  '@odata.nextLink': z.string().optional(),
});

export const subscriptionSchema = z.object({
  id: z.string().min(1),
  expirationDateTime: z.string().min(1),
});

/** `GET /me/calendars/{id}?$select=canEdit`: whether the account may write there. */
export const calendarAccessSchema = z.object({ canEdit: z.boolean().nullish() });
