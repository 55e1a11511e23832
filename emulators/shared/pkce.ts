import { createHash, timingSafeEqual } from 'node:crypto';

export type PkceMethod = 'plain' | 'S256';

/** RFC 7636: a challenge without a method means `plain`. Returns undefined for an unknown method. */
export function parsePkceMethod(value: string | undefined): PkceMethod | undefined {
  if (value === undefined || value === '' || value === 'plain') return 'plain';
  return value === 'S256' ? 'S256' : undefined;
}

export function pkceMatches(challenge: string, method: PkceMethod, verifier: string): boolean {
  const computed = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const a = Buffer.from(computed);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
