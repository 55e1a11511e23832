import { z } from 'zod';

/** The calendarList fields we keep; the SDK's types say what Google may send, this says what we need. */
export const calendarListSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        summary: z.string().nullish(),
        summaryOverride: z.string().nullish(),
        backgroundColor: z.string().nullish(),
        timeZone: z.string().nullish(),
        primary: z.boolean().nullish(),
        accessRole: z.string().nullish(),
      }),
    )
    .default([]),
  nextPageToken: z.string().nullish(),
});

const eventTimeSchema = z.object({ date: z.string().nullish(), dateTime: z.string().nullish() }).nullish();

/** An event as events.list/insert/get return it; cancelled events in a sync carry little more than ids. */
export const googleEventSchema = z.object({
  id: z.string().min(1),
  status: z.string().nullish(),
  etag: z.string().nullish(),
  updated: z.string().nullish(),
  summary: z.string().nullish(),
  /** Read for other syncs' markers only (see other-sync-marker.ts); never kept. */
  description: z.string().nullish(),
  colorId: z.string().nullish(),
  transparency: z.string().nullish(),
  start: eventTimeSchema,
  end: eventTimeSchema,
  recurrence: z.array(z.string()).nullish(),
  recurringEventId: z.string().nullish(),
  extendedProperties: z.object({ private: z.record(z.string(), z.string()).nullish() }).nullish(),
});
export type GoogleEvent = z.infer<typeof googleEventSchema>;

export const googleEventPageSchema = z.object({
  items: z.array(googleEventSchema).default([]),
  nextPageToken: z.string().nullish(),
  nextSyncToken: z.string().nullish(),
});

/** freebusy.query: per calendar, the busy spans (calendars Google could not read carry `errors`). */
export const freeBusySchema = z.object({
  calendars: z
    .record(
      z.string(),
      z.object({ busy: z.array(z.object({ start: z.string(), end: z.string() })).nullish() }),
    )
    .nullish(),
});

export const googleChannelSchema = z.object({
  id: z.string().min(1),
  resourceId: z.string().min(1),
  expiration: z.string().nullish(),
});
