import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { type NewUserRow, type UserRow, users } from '#server/db/schema/users.table.ts';

export type IdentityProviderName = 'google' | 'facebook';

export type PaymentState = Pick<
  UserRow,
  'subscriptionStatus' | 'validUntil' | 'planInterval' | 'canceled' | 'stripeSubscriptionId'
>;

/** The user's own switches, kept on the user row. */
export type UserPreferences = {
  syncActive?: boolean;
  welcomeWizardSeen?: boolean;
  noticeMails?: boolean;
  noticeMailsResolved?: boolean;
};

/** The one writer of `users`. */
export type UserRepository = {
  findById(id: string): Promise<UserRow | undefined>;
  findByProviderId(provider: IdentityProviderName, subject: string): Promise<UserRow | undefined>;
  /** Inserts the user, or returns the existing one when a concurrent first sign-in won the race. */
  insertOrGet(provider: IdentityProviderName, row: NewUserRow): Promise<UserRow>;
  updateProfile(id: string, profile: { email: string }, now: Date): Promise<void>;
  updatePreferences(id: string, preferences: UserPreferences, now: Date): Promise<void>;
  findByStripeCustomerId(customerId: string): Promise<UserRow | undefined>;
  /** Links a Stripe customer unless the user has one already; returns the customer id that stands. */
  linkStripeCustomer(id: string, customerId: string, now: Date): Promise<string | null>;
  updatePayment(id: string, payment: PaymentState, now: Date): Promise<void>;
  /** Deletes the user; sessions and every other row of the user go with it (ON DELETE CASCADE). */
  delete(id: string): Promise<boolean>;
};

export function createUserRepository(db: Db): UserRepository {
  const idColumn = (provider: IdentityProviderName) =>
    provider === 'google' ? users.googleId : users.facebookId;

  const repository: UserRepository = {
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    async findByProviderId(provider: IdentityProviderName, subject: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(eq(idColumn(provider), subject));
      return row;
    },

    /** Inserts the user, or returns the existing one when a concurrent first sign-in won the race. */
    async insertOrGet(provider: IdentityProviderName, row: NewUserRow): Promise<UserRow> {
      const [inserted] = await db
        .insert(users)
        .values(row)
        .onConflictDoNothing({ target: idColumn(provider) })
        .returning();
      if (inserted) return inserted;
      const subject = provider === 'google' ? row.googleId : row.facebookId;
      const existing = subject ? await repository.findByProviderId(provider, subject) : undefined;
      if (!existing) throw new Error('User insert conflicted but no existing user was found');
      return existing;
    },

    async updateProfile(id: string, profile: { email: string }, now: Date): Promise<void> {
      await db.update(users).set({ email: profile.email, updatedAt: now }).where(eq(users.id, id));
    },

    async updatePreferences(id: string, preferences: UserPreferences, now: Date): Promise<void> {
      await db
        .update(users)
        .set({ ...preferences, updatedAt: now })
        .where(eq(users.id, id));
    },

    async findByStripeCustomerId(customerId: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.stripeCustomerId, customerId));
      return row;
    },

    /** Links a Stripe customer unless the user has one already; returns the customer id that stands. */
    async linkStripeCustomer(id: string, customerId: string, now: Date): Promise<string | null> {
      await db
        .update(users)
        .set({ stripeCustomerId: customerId, updatedAt: now })
        .where(and(eq(users.id, id), isNull(users.stripeCustomerId)));
      return (await repository.findById(id))?.stripeCustomerId ?? null;
    },

    async updatePayment(id: string, payment: PaymentState, now: Date): Promise<void> {
      await db
        .update(users)
        .set({ ...payment, updatedAt: now })
        .where(eq(users.id, id));
    },

    /** Deletes the user; sessions and every other row of the user go with it (ON DELETE CASCADE). */
    async delete(id: string): Promise<boolean> {
      const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
      return deleted.length > 0;
    },
  };
  return repository;
}
