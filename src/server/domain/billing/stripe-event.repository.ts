import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { stripeEvents } from '#server/db/schema/stripe-events.table.ts';

/** The one writer of `stripe_events`: the ids of the webhook events already applied. */
export type StripeEventRepository = {
  wasProcessed(eventId: string): Promise<boolean>;
  markProcessed(eventId: string, type: string, now: Date): Promise<void>;
};

export function createStripeEventRepository(db: Db): StripeEventRepository {
  return {
    async wasProcessed(eventId: string): Promise<boolean> {
      const [row] = await db.select().from(stripeEvents).where(eq(stripeEvents.eventId, eventId));
      return row !== undefined;
    },
    async markProcessed(eventId: string, type: string, now: Date): Promise<void> {
      await db.insert(stripeEvents).values({ eventId, type, processedAt: now }).onConflictDoNothing();
    },
  };
}
