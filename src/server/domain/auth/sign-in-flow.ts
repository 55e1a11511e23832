import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { IdentityProviderName } from '../users/user.repository.ts';
import type { SignInFlow } from './identity-provider.port.ts';

const random = () => randomBytes(32).toString('base64url');

export function startSignInFlow(provider: IdentityProviderName): SignInFlow {
  return { provider, state: random(), nonce: random(), codeVerifier: random() };
}

export const signInFlowSchema = z.object({
  provider: z.enum(['google', 'facebook']),
  state: z.string().min(32),
  nonce: z.string().min(32),
  codeVerifier: z.string().min(43),
});

export function parseSignInFlow(serialized: string | undefined): SignInFlow | null {
  if (!serialized) return null;
  try {
    const parsed = signInFlowSchema.safeParse(JSON.parse(serialized));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // a tampered or truncated cookie is simply no flow
  }
}
