import { z } from 'zod';

export const facebookTokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
});

export const facebookProfileSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  first_name: z.string().optional(),
  email: z.string().optional(),
});

export const facebookErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string().optional(), code: z.number().optional() }),
});
