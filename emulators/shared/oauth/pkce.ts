import { createHash, timingSafeEqual } from 'node:crypto';

export type PkceMethod = 'plain' | 'S256';

/** The `code_challenge` of an authorization request, kept with its code until the exchange. */
export type PkceChallenge = { challenge: string; method: PkceMethod };

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

/**
 * The PKCE parameters of an authorization request: no challenge, a challenge with its method, or what
 * is wrong with them (an unknown method, or a method without a challenge).
 */
export function readPkceChallenge(
  params: Record<string, string>,
):
  | { ok: true; pkce: PkceChallenge | undefined }
  | { ok: false; problem: 'unknown_method' | 'method_without_challenge' } {
  const challenge = params.code_challenge;
  if (!challenge) {
    return params.code_challenge_method
      ? { ok: false, problem: 'method_without_challenge' }
      : { ok: true, pkce: undefined };
  }
  const method = parsePkceMethod(params.code_challenge_method);
  return method ? { ok: true, pkce: { challenge, method } } : { ok: false, problem: 'unknown_method' };
}

/** How a token request's `code_verifier` stands against the challenge its code was issued with. */
export function checkVerifier(
  pkce: PkceChallenge | undefined,
  verifier: string | undefined,
): 'ok' | 'missing' | 'mismatch' | 'unrequested' {
  if (!pkce) return verifier ? 'unrequested' : 'ok';
  if (!verifier) return 'missing';
  return pkceMatches(pkce.challenge, pkce.method, verifier) ? 'ok' : 'mismatch';
}
