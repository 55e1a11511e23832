import type { PkceChallenge } from './pkce.ts';

/** What every authorization code remembers of its request; providers add their own fields. */
export type CodeRequest = {
  clientId: string;
  redirectUri: string;
  pkce?: PkceChallenge | undefined;
};

export type CodeLookup<T> = { status: 'valid'; code: T } | { status: 'used' | 'expired' | 'unknown' };

const TEN_MINUTES_MS = 10 * 60 * 1000;

/**
 * Authorization codes: single use and short-lived. A code is consumed by its first exchange, even one
 * that then fails, and is remembered so a second try can be told it was used (Microsoft and Facebook
 * say so; Google and Todoist answer as for any bad code).
 */
export class AuthorizationCodes<T extends CodeRequest> {
  readonly #newCode: () => string;
  readonly #lifetimeMs: number;
  #codes = new Map<string, { details: T; expiresAt: number }>();
  #used = new Set<string>();

  constructor(newCode: () => string, lifetimeMs = TEN_MINUTES_MS) {
    this.#newCode = newCode;
    this.#lifetimeMs = lifetimeMs;
  }

  issue(details: T): string {
    const code = this.#newCode();
    this.#codes.set(code, { details, expiresAt: Date.now() + this.#lifetimeMs });
    return code;
  }

  take(code: string): CodeLookup<T> {
    if (this.#used.has(code)) return { status: 'used' };
    const found = this.#codes.get(code);
    if (!found) return { status: 'unknown' };
    this.#codes.delete(code);
    this.#used.add(code);
    return found.expiresAt > Date.now() ? { status: 'valid', code: found.details } : { status: 'expired' };
  }

  /** Codes issued and neither used nor expired, for the emulators' state view. */
  liveCount(): number {
    const now = Date.now();
    return [...this.#codes.values()].filter((code) => code.expiresAt > now).length;
  }

  reset(): void {
    this.#codes.clear();
    this.#used.clear();
  }
}
