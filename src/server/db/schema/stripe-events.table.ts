import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Stripe events already applied, so that a redelivered event changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});
