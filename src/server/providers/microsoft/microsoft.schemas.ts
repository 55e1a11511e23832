import { z } from 'zod';

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.coerce.number().positive(),
  scope: z.string().optional(),
});

export const tokenErrorSchema = z.object({ error: z.string(), error_codes: z.array(z.number()).optional() });

export const calendarPageSchema = z.object({
  value: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string(),
      color: z.string().nullish(),
      isDefaultCalendar: z.boolean().nullish(),
      canEdit: z.boolean().nullish(),
    }),
  ),
  '@odata.nextLink': z.string().optional(),
});

export const categoryPageSchema = z.object({
  value: z.array(z.object({ id: z.string().min(1), displayName: z.string(), color: z.string() })),
  '@odata.nextLink': z.string().optional(),
});

/** `mail` is null for an account without an Exchange mailbox; `userPrincipalName` is its sign-in name. */
export const meSchema = z.object({
  id: z.string().min(1),
  mail: z.string().nullish(),
  userPrincipalName: z.string().nullish(),
});
