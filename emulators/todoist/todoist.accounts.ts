import { randomBytes } from 'node:crypto';
import { randomAlphanumeric } from '../shared/ids.ts';
import { AuthorizationCodes, type CodeRequest } from '../shared/oauth/authorization-codes.ts';

export type AuthCode = CodeRequest & { userId: string; scopes: string[] };

/** `oauth` tokens come from the app's OAuth flow; `personal` ones stand for the user's own API token. */
export type AccessToken = {
  userId: string;
  kind: 'oauth' | 'personal';
  clientId: string | null;
  scopes: string[];
  createdAt: string;
};

export const ALL_SCOPES = ['task:add', 'data:read', 'data:read_write', 'data:delete', 'project:delete'];

/** Authorization codes and access tokens. */
export class TodoistAccounts {
  /** Single use: a code is gone after its first exchange, even a failed one. */
  readonly codes = new AuthorizationCodes<AuthCode>(() => randomAlphanumeric(40));
  #tokens = new Map<string, AccessToken>();
  /** Each user's tokens in the order issued, so that a user's are found without going through everyone's. */
  #tokensByUser = new Map<string, Map<string, AccessToken>>();

  issueToken(details: Omit<AccessToken, 'createdAt'>): string {
    // Todoist tokens are 40 lowercase hex characters.
    const token = randomBytes(20).toString('hex');
    const issued = { ...details, createdAt: new Date().toISOString() };
    this.#tokens.set(token, issued);
    let own = this.#tokensByUser.get(details.userId);
    if (!own) {
      own = new Map();
      this.#tokensByUser.set(details.userId, own);
    }
    own.set(token, issued);
    return token;
  }

  /** The user's personal API token (one per user, like the one in Todoist's settings). */
  personalToken(userId: string): string {
    for (const [token, details] of this.#tokensByUser.get(userId) ?? []) {
      if (details.kind === 'personal') return token;
    }
    return this.issueToken({ userId, kind: 'personal', clientId: null, scopes: ALL_SCOPES });
  }

  token(token: string): AccessToken | undefined {
    return this.#tokens.get(token);
  }

  revoke(token: string): AccessToken | undefined {
    const found = this.#tokens.get(token);
    this.#tokens.delete(token);
    if (found) this.#tokensByUser.get(found.userId)?.delete(token);
    return found;
  }

  /** Whether the user has authorized the app: webhooks are only sent for such users. */
  hasAuthorized(userId: string, clientId: string): boolean {
    for (const details of this.#tokensByUser.get(userId)?.values() ?? []) {
      if (details.kind === 'oauth' && details.clientId === clientId) return true;
    }
    return false;
  }

  reset(): void {
    this.codes.reset();
    this.#tokens.clear();
    this.#tokensByUser.clear();
  }

  snapshot() {
    return {
      liveCodes: this.codes.liveCount(),
      tokens: [...this.#tokens].map(([token, details]) => ({ token, ...details })),
    };
  }
}
