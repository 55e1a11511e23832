import { guid } from './microsoft.ids.ts';

export type ChangeTypeName = 'created' | 'updated' | 'deleted';

export type Subscription = {
  id: string;
  userId: string;
  /** The application (client id) whose token created it. */
  applicationId: string;
  tenantId: string;
  /** The resource exactly as the client wrote it. */
  resource: string;
  calendarId: string;
  changeTypes: ChangeTypeName[];
  notificationUrl: string;
  lifecycleNotificationUrl: string | null;
  clientState: string | null;
  latestSupportedTlsVersion: string;
  expiresAt: number;
  /**
   * Set by a `reauthorizationRequired` lifecycle event, cleared by reauthorize or renewal; while set,
   * no change notification goes out.
   */
  reauthorizationRequired: boolean;
};

/**
 * Change-notification subscriptions; an expired one is gone, as far as clients can tell. Each user's are
 * kept apart too, so that an event write or a user's listing does not go through every user's (the scale
 * benchmark has a subscription for each of thousands of users).
 */
export class SubscriptionStore {
  /** By id, in the order made (the state view). */
  #subscriptions = new Map<string, Subscription>();
  /** By user id, then id, in the order made. */
  #byUser = new Map<string, Map<string, Subscription>>();

  create(details: Omit<Subscription, 'id' | 'reauthorizationRequired'>): Subscription {
    const subscription = { ...details, id: guid(), reauthorizationRequired: false };
    this.#subscriptions.set(subscription.id, subscription);
    let own = this.#byUser.get(subscription.userId);
    if (!own) {
      own = new Map();
      this.#byUser.set(subscription.userId, own);
    }
    own.set(subscription.id, subscription);
    return subscription;
  }

  /** A live subscription by id; an expired one reads as gone (the lifecycle sweeps it away). */
  get(id: string): Subscription | undefined {
    const subscription = this.#subscriptions.get(id);
    return subscription && subscription.expiresAt > Date.now() ? subscription : undefined;
  }

  /** Also an expired one that has not been swept yet. */
  stored(id: string): Subscription | undefined {
    return this.#subscriptions.get(id);
  }

  /** Every user's live subscriptions, in the order made. */
  live(): Subscription[] {
    return [...this.#subscriptions.values()].filter((subscription) => subscription.expiresAt > Date.now());
  }

  /** One user's live subscriptions, in the order made. */
  liveOf(userId: string): Subscription[] {
    const own = this.#byUser.get(userId);
    return own ? [...own.values()].filter((subscription) => subscription.expiresAt > Date.now()) : [];
  }

  delete(id: string): boolean {
    const subscription = this.#subscriptions.get(id);
    if (!subscription) return false;
    this.#byUser.get(subscription.userId)?.delete(id);
    return this.#subscriptions.delete(id);
  }

  /** Control: the subscription expires now (it stops notifying and reads as not found). */
  expire(id: string): boolean {
    const subscription = this.#subscriptions.get(id);
    if (!subscription) return false;
    subscription.expiresAt = Date.now() - 1;
    return true;
  }

  reset(): void {
    this.#subscriptions.clear();
    this.#byUser.clear();
  }

  snapshot() {
    return {
      subscriptions: [...this.#subscriptions.values()].map((subscription) => ({
        ...subscription,
        expirationDateTime: new Date(subscription.expiresAt).toISOString(),
        expired: subscription.expiresAt <= Date.now(),
      })),
    };
  }
}
