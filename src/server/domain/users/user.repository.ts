import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { type NewUserRow, type UserRow, users } from '#server/db/schema/users.table.ts';

export type IdentityProviderName = 'google' | 'facebook';

export type UserRepository = ReturnType<typeof createUserRepository>;

export function createUserRepository(db: Db) {
  const idColumn = (provider: IdentityProviderName) =>
    provider === 'google' ? users.googleId : users.facebookId;

  return {
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
      const existing = subject ? await this.findByProviderId(provider, subject) : undefined;
      if (!existing) throw new Error('User insert conflicted but no existing user was found');
      return existing;
    },

    async updateProfile(id: string, profile: { email: string }, now: Date): Promise<void> {
      await db.update(users).set({ email: profile.email, updatedAt: now }).where(eq(users.id, id));
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
      return (await this.findById(id))?.stripeCustomerId ?? null;
    },

    async updatePayment(
      id: string,
      payment: Pick<
        UserRow,
        'subscriptionStatus' | 'validUntil' | 'planInterval' | 'canceled' | 'stripeSubscriptionId'
      >,
      now: Date,
    ): Promise<void> {
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
}
