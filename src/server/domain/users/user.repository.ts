import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { type NewUserRow, type UserRow, users } from '#server/db/schema/users.table.ts';

export type IdentityProviderName = 'google' | 'facebook';

export type PaymentState = Pick<
  UserRow,
  'subscriptionStatus' | 'validUntil' | 'planInterval' | 'canceled' | 'trialing' | 'stripeSubscriptionId'
>;

/** The user's own switches, kept on the user row (the notice switches have calls of their own). */
export type UserPreferences = {
  syncActive?: boolean;
  welcomeWizardSeen?: boolean;
};

/** The profile's notice switches: mails when sync stops or needs the user, and when that is solved. */
export type NoticeSwitches = { mails: boolean; resolvedMails: boolean };

/** The one writer of `users`. */
export type UserRepository = {
  findById(id: string): Promise<UserRow | undefined>;
  findByProviderId(provider: IdentityProviderName, subject: string): Promise<UserRow | undefined>;
  /** Inserts the user, or returns the existing one when a concurrent first sign-in won the race. */
  insertOrGet(provider: IdentityProviderName, row: NewUserRow): Promise<UserRow>;
  updateProfile(id: string, profile: { email: string }, now: Date): Promise<void>;
  updatePreferences(id: string, preferences: UserPreferences, now: Date): Promise<void>;
  /**
   * Sets the notice switches. Switching the mails on from off moves the "turn them off" link version on,
   * so links mailed before no longer switch them off.
   */
  updateNoticeSwitches(id: string, switches: NoticeSwitches, now: Date): Promise<void>;
  /**
   * A mail's link: switches the notice mails off while `linkVersion` is still the user's. False when it is
   * not (the mails were switched on again since) or there is no such user.
   */
  turnNoticeMailsOff(id: string, linkVersion: number, now: Date): Promise<boolean>;
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

    async updateNoticeSwitches(id: string, switches: NoticeSwitches, now: Date): Promise<void> {
      await db
        .update(users)
        .set({
          noticeMails: switches.mails,
          noticeMailsResolved: switches.resolvedMails,
          // The row's values before this update: only a switch from off to on moves the version.
          ...(switches.mails && {
            noticeOffLinkVersion: sql`case when ${users.noticeMails} then ${users.noticeOffLinkVersion} else ${users.noticeOffLinkVersion} + 1 end`,
          }),
          updatedAt: now,
        })
        .where(eq(users.id, id));
    },

    async turnNoticeMailsOff(id: string, linkVersion: number, now: Date): Promise<boolean> {
      const updated = await db
        .update(users)
        .set({ noticeMails: false, updatedAt: now })
        .where(and(eq(users.id, id), eq(users.noticeOffLinkVersion, linkVersion)))
        .returning({ id: users.id });
      return updated.length > 0;
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
