import { z } from 'zod';

/**
 * The app's background work, in the app's own database: user sync runs, the periodic reconcile that
 * visits every active user, and Stripe events (verified by the web process, applied by a worker).
 */
export const USER_SYNC_QUEUE = 'user-runs';
/** The user queue before decision 018 (stately policy): its waiting users move to `USER_SYNC_QUEUE`. */
export const LEGACY_USER_SYNC_QUEUE = 'user-sync';
export const RECONCILE_QUEUE = 'sync-reconcile';
export const STRIPE_EVENT_QUEUE = 'stripe-event';
export const NOTICE_MAIL_QUEUE = 'notice-mail';

/**
 * What queued a user's run (for the metrics): a notification or the user's own action, the reconcile,
 * or a run again after a failure or a provider's "wait" (a reconcile visit held back stays the
 * reconcile's). A request folds into a waiting job, which keeps its reason, but a reconcile job a
 * change folds into becomes the change's.
 */
export const SYNC_TRIGGERS = ['change', 'reconcile', 'retry'] as const;
export type SyncTrigger = (typeof SYNC_TRIGGERS)[number];

export const userSyncJob = z.object({ userId: z.uuid(), trigger: z.enum(SYNC_TRIGGERS).optional() });
export const reconcileJob = z.object({ jitterSeconds: z.number().int().min(0).default(0) });
export const stripeEventJob = z.object({
  id: z.string().min(1),
  type: z.string(),
  customerId: z.string().nullable(),
  clientReferenceId: z.string().nullable(),
});
export type StripeEventJob = z.infer<typeof stripeEventJob>;
export const noticeMailJob = z.object({
  userId: z.uuid(),
  kind: z.string().min(1),
  occurrence: z.iso.datetime({ offset: true }),
  resolved: z.boolean(),
});
/** One notice mail to send (its words are made when it is sent, from the user as they are then). */
export type NoticeMailJob = z.infer<typeof noticeMailJob>;
