import type { Notifier } from '../shared/notifier.ts';
import { type LifecycleEvent, sendLifecycleNotification } from './microsoft.notifications.ts';
import type { Subscription, SubscriptionStore } from './microsoft.subscription-store.ts';

/** setTimeout's ceiling (about 24.8 days); a longer wait is taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type SubscriptionLifecycle = ReturnType<typeof createSubscriptionLifecycle>;

/**
 * The lifecycle notifications Graph sends by itself (docs/provider-facts.md §3, MS Learn "Reduce
 * missing subscriptions and change notifications"): `reauthorizationRequired` shortly before a
 * subscription expires, after which its change notifications pause until the app reauthorizes or renews
 * it (`microsoft.notifications.ts`); `subscriptionRemoved` when Graph removes it because the app lost
 * access (`accessLost`). A subscription that just expires goes without a word. Lifecycle notifications
 * only reach subscriptions that have a lifecycleNotificationUrl. How long "shortly" is, Microsoft does
 * not say; here it is `reauthorizationLeadMs` (default 10 minutes).
 */
export function createSubscriptionLifecycle(options: {
  subscriptions: SubscriptionStore;
  notifier: Notifier;
  /** Read when a subscription is (re)scheduled, so a test can change it at runtime. */
  reauthorizationLeadMs: () => number;
}) {
  const { subscriptions, notifier } = options;
  const timers = new Map<string, { timer?: NodeJS.Timeout }[]>();

  const notify = (subscription: Subscription, event: LifecycleEvent) =>
    sendLifecycleNotification(notifier, subscription, event);

  /** Runs `action` at `whenMs`; the handle follows the re-arms a wait past setTimeout's ceiling needs. */
  function at(whenMs: number, action: () => void): { timer?: NodeJS.Timeout } {
    const handle: { timer?: NodeJS.Timeout } = {};
    const arm = () => {
      const wait = Math.min(Math.max(0, whenMs - Date.now()), MAX_TIMER_MS);
      handle.timer = setTimeout(() => (Date.now() >= whenMs ? action() : arm()), wait);
      handle.timer.unref();
    };
    arm();
    return handle;
  }

  function cancel(id: string): void {
    for (const handle of timers.get(id) ?? []) clearTimeout(handle.timer);
    timers.delete(id);
  }

  /** Removes an expired subscription: it stops, and nothing is sent (the app's renewal should have come). */
  function sweep(id: string): void {
    const subscription = subscriptions.stored(id);
    if (!subscription || subscription.expiresAt > Date.now()) return;
    cancel(id);
    subscriptions.delete(id);
  }

  /** Pauses the subscription's change notifications until it is reauthorized or renewed. */
  function reauthorizationRequired(subscription: Subscription): void {
    subscription.reauthorizationRequired = true;
    notify(subscription, 'reauthorizationRequired');
  }

  /** (Re)plans a subscription's reminder and removal after it was created or its expiry changed. */
  function schedule(subscription: Subscription, remind = true): void {
    cancel(subscription.id);
    const { id, expiresAt } = subscription;
    const planned = [at(expiresAt, () => sweep(id))];
    if (remind && subscription.lifecycleNotificationUrl) {
      planned.push(
        at(expiresAt - options.reauthorizationLeadMs(), () => {
          const current = subscriptions.get(id);
          if (current?.expiresAt === expiresAt) reauthorizationRequired(current);
        }),
      );
    }
    timers.set(id, planned);
  }

  return {
    schedule,
    cancel,
    reauthorizationRequired,
    /**
     * The app lost access to these subscriptions' data (its user's tokens revoked, consent removed):
     * Graph removes them and tells each lifecycle URL `subscriptionRemoved`. Answers how many.
     */
    accessLost(matches: (subscription: Subscription) => boolean): number {
      const lost = subscriptions.live().filter(matches);
      for (const subscription of lost) {
        cancel(subscription.id);
        subscriptions.delete(subscription.id);
        notify(subscription, 'subscriptionRemoved');
      }
      return lost.length;
    },
    /** Control: the subscription expires in `inMs`; the reminder goes out now, and it stops at expiry. */
    expireSoon(subscription: Subscription, inMs: number): void {
      subscription.expiresAt = Math.min(subscription.expiresAt, Date.now() + inMs);
      schedule(subscription, false);
      if (subscription.lifecycleNotificationUrl) reauthorizationRequired(subscription);
    },
    /** Sends `missed` for a change notification Graph gave up delivering. */
    missed(subscriptionId: string): void {
      const subscription = subscriptions.get(subscriptionId);
      if (subscription) notify(subscription, 'missed');
    },
    reset(): void {
      for (const id of [...timers.keys()]) cancel(id);
    },
  };
}
