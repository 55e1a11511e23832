import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  firstName: text('first_name').notNull(),
  displayName: text('display_name').notNull(),
  email: text('email').notNull(),
  googleId: text('google_id').unique(),
  facebookId: text('facebook_id').unique(),
  syncActive: boolean('sync_active').notNull().default(false),
  welcomeWizardSeen: boolean('welcome_wizard_seen').notNull().default(false),
  /** E-mail the user when their sync stops or needs them (profile switch, one-click unsubscribe). */
  noticeMails: boolean('notice_mails').notNull().default(true),
  /** … and when such a problem is solved. */
  noticeMailsResolved: boolean('notice_mails_resolved').notNull().default(false),
  /**
   * The version a mail's "turn them off" link is signed for. Switching the mails on again moves past it,
   * so a link from before then no longer switches them off (links from before versions existed are 0).
   */
  noticeOffLinkVersion: integer('notice_off_link_version').notNull().default(0),
  subscriptionStatus: text('subscription_status').notNull().default('trial'),
  validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
  planInterval: text('plan_interval'),
  canceled: boolean('canceled').notNull().default(false),
  /**
   * A paid plan still in the free trial the user upgraded in (Stripe's `trialing`): nothing charged yet,
   * the first charge is on `valid_until` (docs/decisions/006-billing.md).
   */
  trialing: boolean('trialing').notNull().default(false),
  stripeCustomerId: text('stripe_customer_id').unique(),
  stripeSubscriptionId: text('stripe_subscription_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
