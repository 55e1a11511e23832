import { randomBytes } from 'node:crypto';
import { randomAlphanumeric } from '../shared/ids.ts';

export type AuthCode = {
  clientId: string;
  userId: string;
  scopes: string[];
  redirectUri: string;
  expiresAt: number;
};

/** `oauth` tokens come from the app's OAuth flow; `personal` ones stand for the user's own API token. */
export type AccessToken = {
  userId: string;
  kind: 'oauth' | 'personal';
  clientId: string | null;
  scopes: string[];
  createdAt: string;
};

const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const ALL_SCOPES = ['task:add', 'data:read', 'data:read_write', 'data:delete', 'project:delete'];

/** Authorization codes and access tokens. */
export class TodoistAccounts {
  #codes = new Map<string, AuthCode>();
  #tokens = new Map<string, AccessToken>();

  issueCode(details: Omit<AuthCode, 'expiresAt'>): string {
    const code = randomAlphanumeric(40);
    this.#codes.set(code, { ...details, expiresAt: Date.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** Consumes a code (single use); undefined when unknown, used or expired. */
  takeCode(code: string): AuthCode | undefined {
    const found = this.#codes.get(code);
    this.#codes.delete(code);
    return found && found.expiresAt > Date.now() ? found : undefined;
  }

  issueToken(details: Omit<AccessToken, 'createdAt'>): string {
    // Todoist tokens are 40 lowercase hex characters.
    const token = randomBytes(20).toString('hex');
    this.#tokens.set(token, { ...details, createdAt: new Date().toISOString() });
    return token;
  }

  /** The user's personal API token (one per user, like the one in Todoist's settings). */
  personalToken(userId: string): string {
    for (const [token, details] of this.#tokens) {
      if (details.userId === userId && details.kind === 'personal') return token;
    }
    return this.issueToken({ userId, kind: 'personal', clientId: null, scopes: ALL_SCOPES });
  }

  token(token: string): AccessToken | undefined {
    return this.#tokens.get(token);
  }

  revoke(token: string): AccessToken | undefined {
    const found = this.#tokens.get(token);
    this.#tokens.delete(token);
    return found;
  }

  /** Whether the user has authorized the app: webhooks are only sent for such users. */
  hasAuthorized(userId: string, clientId: string): boolean {
    for (const details of this.#tokens.values()) {
      if (details.userId === userId && details.kind === 'oauth' && details.clientId === clientId) return true;
    }
    return false;
  }

  reset(): void {
    this.#codes.clear();
    this.#tokens.clear();
  }

  snapshot() {
    return {
      liveCodes: [...this.#codes.values()].filter((code) => code.expiresAt > Date.now()).length,
      tokens: [...this.#tokens].map(([token, details]) => ({ token, ...details })),
    };
  }
}
