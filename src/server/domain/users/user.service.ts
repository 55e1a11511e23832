import type { UserRow } from '#server/db/schema/users.table.ts';
import { TRIAL_DAYS } from '#shared/product.ts';
import type { Clock } from '../shared/clock.port.ts';
import type { IdentityProviderName, UserRepository } from './user.repository.ts';

/** What an identity provider tells us about the person who signed in. */
export type VerifiedIdentity = {
  provider: IdentityProviderName;
  subject: string;
  email: string;
  name: string;
  firstName?: string;
};

const DAY_MS = 24 * 60 * 60 * 1000;

export type UserService = ReturnType<typeof createUserService>;

type Deps = {
  users: UserRepository;
  clock: Clock;
  /** Ends the user's provider grants before their data goes; best effort, must not throw. */
  revokeGrants?: (userId: string) => Promise<void>;
  /** The user's sessions went with their rows: told so that none is remembered elsewhere. */
  forgetSessions?: (userId: string) => void;
};

export function createUserService(deps: Deps) {
  return {
    /** Finds the user of this identity, or creates them on first sign-in with a fresh trial. */
    async signIn(identity: VerifiedIdentity): Promise<{ user: UserRow; created: boolean }> {
      const existing = await deps.users.findByProviderId(identity.provider, identity.subject);
      if (existing) {
        if (identity.email && identity.email !== existing.email) {
          await deps.users.updateProfile(existing.id, { email: identity.email }, deps.clock());
          return { user: { ...existing, email: identity.email }, created: false };
        }
        return { user: existing, created: false };
      }
      const now = deps.clock();
      const user = await deps.users.insertOrGet(identity.provider, {
        ...namesOf(identity),
        email: identity.email,
        googleId: identity.provider === 'google' ? identity.subject : null,
        facebookId: identity.provider === 'facebook' ? identity.subject : null,
        subscriptionStatus: 'trial',
        validUntil: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
        createdAt: now,
        updatedAt: now,
      });
      return { user, created: true };
    },

    findById: (id: string) => deps.users.findById(id),

    /** Revokes the provider grants first (best effort), then deletes the user and all their rows. */
    async deleteAccount(id: string): Promise<boolean> {
      await deps.revokeGrants?.(id).catch(() => undefined);
      const deleted = await deps.users.delete(id);
      deps.forgetSessions?.(id);
      return deleted;
    },
  };
}

export function namesOf(identity: Pick<VerifiedIdentity, 'name' | 'firstName' | 'email'>): {
  firstName: string;
  displayName: string;
} {
  const displayName = identity.name.trim() || identity.email.split('@')[0] || 'there';
  const firstName = identity.firstName?.trim() || displayName.split(/\s+/)[0] || displayName;
  return { firstName, displayName };
}
