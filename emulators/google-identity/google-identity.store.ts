import { numericIdFrom } from '../shared/ids.ts';

export type GoogleUser = { sub: string; email: string; name: string };

/** The people who signed in; their codes and grants live in the shared Google OAuth store. */
export class GoogleIdentityStore {
  #users = new Map<string, GoogleUser>();

  /** The same lower-cased e-mail is always the same `sub`; the latest name wins. */
  upsertUser(email: string, name: string): GoogleUser {
    const normalized = email.trim().toLowerCase();
    const user = { sub: numericIdFrom(normalized, 21), email: normalized, name };
    this.#users.set(user.sub, user);
    return user;
  }

  user(sub: string): GoogleUser | undefined {
    return this.#users.get(sub);
  }

  reset(): void {
    this.#users.clear();
  }

  users(): GoogleUser[] {
    return [...this.#users.values()];
  }
}
