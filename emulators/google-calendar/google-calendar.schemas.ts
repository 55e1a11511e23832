import { z } from 'zod';
import { GoogleApiError } from './google-calendar.errors.ts';

/** Request bodies as the Calendar API accepts them: unknown fields are ignored, `null` clears in a patch. */
export const eventTimeSchema = z.object({
  date: z.string().nullish(),
  dateTime: z.string().nullish(),
  timeZone: z.string().nullish(),
});

const reminderSchema = z.object({
  method: z.enum(['email', 'popup']),
  minutes: z.number().int().min(0).max(40_320),
});

const propertyMapSchema = z.record(z.string(), z.string().nullable());

export const eventInputSchema = z.object({
  id: z.string().nullish(),
  status: z.enum(['confirmed', 'tentative', 'cancelled']).nullish(),
  summary: z.string().nullish(),
  description: z.string().nullish(),
  location: z.string().nullish(),
  colorId: z.string().nullish(),
  start: eventTimeSchema.nullish(),
  end: eventTimeSchema.nullish(),
  visibility: z.enum(['default', 'public', 'private', 'confidential']).nullish(),
  transparency: z.enum(['opaque', 'transparent']).nullish(),
  reminders: z
    .object({ useDefault: z.boolean().nullish(), overrides: z.array(reminderSchema).nullish() })
    .nullish(),
  extendedProperties: z
    .object({ private: propertyMapSchema.nullish(), shared: propertyMapSchema.nullish() })
    .nullish(),
  recurrence: z.array(z.string()).nullish(),
  eventType: z.enum(['default']).nullish(),
});
export type EventInput = z.infer<typeof eventInputSchema>;
export type EventTimeInput = z.infer<typeof eventTimeSchema>;

/** The writable properties of a `calendar#calendar` (calendars.insert, patch, update). */
export const calendarInputSchema = z.object({
  summary: z.string().nullish(),
  description: z.string().nullish(),
  location: z.string().nullish(),
  timeZone: z.string().nullish(),
});
export type CalendarInput = z.infer<typeof calendarInputSchema>;

export const channelInputSchema = z.object({
  id: z.string().min(1).max(64),
  type: z.string(),
  address: z.string(),
  token: z.string().max(256).nullish(),
  expiration: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).nullish(),
  params: z.record(z.string(), z.string()).nullish(),
});
export type ChannelInput = z.infer<typeof channelInputSchema>;

export const stopChannelSchema = z.object({ id: z.string().min(1), resourceId: z.string().min(1) });

/** Parses a body, answering a bad one the way Google does: 400 with the first problem named. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || 'body';
  const required = issue?.code === 'invalid_type' && issue.message.includes('undefined');
  throw new GoogleApiError(400, {
    domain: 'global',
    reason: required ? 'required' : 'invalid',
    message: required ? `Required parameter: ${field}` : `Invalid value for: ${field}`,
  });
}
