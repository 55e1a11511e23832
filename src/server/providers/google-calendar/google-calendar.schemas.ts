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
      }),
    )
    .default([]),
  nextPageToken: z.string().nullish(),
});
