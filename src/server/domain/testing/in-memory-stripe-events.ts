import type { StripeEventRepository } from '../billing/stripe-event.repository.ts';

/**
 * The Stripe event repository (the events already applied) in memory, with the same rules as the Drizzle
 * one (unique keys, scoping by user), for the services' unit tests. Its rows are public so a test can
 * arrange them and read what was written.
 */

export type InMemoryStripeEvents = StripeEventRepository & {
  rows: Map<string, { type: string; processedAt: Date }>;
};

export function inMemoryStripeEvents(): InMemoryStripeEvents {
  const rows = new Map<string, { type: string; processedAt: Date }>();
  return {
    rows,
    wasProcessed: async (eventId) => rows.has(eventId),
    markProcessed: async (eventId, type, now) => {
      if (!rows.has(eventId)) rows.set(eventId, { type, processedAt: now });
    },
  };
}
