import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { stripeEvents } from '#server/db/schema/stripe-events.table.ts';

export type StripeEventRepository = ReturnType<typeof createStripeEventRepository>;

export function createStripeEventRepository(db: Db) {
  return {
    async wasProcessed(eventId: string): Promise<boolean> {
      const [row] = await db.select().from(stripeEvents).where(eq(stripeEvents.eventId, eventId));
      return row !== undefined;
    },
    async markProcessed(eventId: string, type: string): Promise<void> {
      await db.insert(stripeEvents).values({ eventId, type }).onConflictDoNothing();
    },
  };
}
