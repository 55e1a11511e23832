import { z } from 'zod';

/** The ID token claims we rely on; openid-client has already checked signature, iss, aud and nonce. */
export const googleClaimsSchema = z.object({
  sub: z.string().min(1),
  email: z.string().min(3),
  name: z.string().optional(),
  given_name: z.string().optional(),
});
