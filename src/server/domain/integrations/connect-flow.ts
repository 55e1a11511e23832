import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ConnectFlow, IntegrationProvider } from './integration-providers.port.ts';

const random = () => randomBytes(32).toString('base64url');

export function startConnectFlow(
  provider: IntegrationProvider,
  userId: string,
  loginHint?: string,
  anotherAccount = false,
): ConnectFlow {
  return {
    provider,
    state: random(),
    codeVerifier: random(),
    userId,
    ...(loginHint && !anotherAccount ? { loginHint } : {}),
    ...(anotherAccount ? { anotherAccount } : {}),
  };
}

const connectFlowSchema = z.object({
  provider: z.enum(['todoist', 'google', 'microsoft']),
  state: z.string().min(32),
  codeVerifier: z.string().min(43),
  userId: z.string().min(1),
  loginHint: z.string().optional(),
  anotherAccount: z.boolean().optional(),
});

export function parseConnectFlow(serialized: string | undefined): ConnectFlow | null {
  if (!serialized) return null;
  try {
    const parsed = connectFlowSchema.safeParse(JSON.parse(serialized));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // a tampered or truncated cookie is simply no flow
  }
}
