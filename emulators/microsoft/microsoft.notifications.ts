import type { Notifier } from '../shared/notifier.ts';
import type { EventChange, EventStore, StoredEvent } from './microsoft.event-store.ts';
import type { Subscription, SubscriptionStore } from './microsoft.subscription-store.ts';
import { formatTimestamp } from './microsoft.time.ts';

export type LifecycleEvent = 'reauthorizationRequired' | 'subscriptionRemoved' | 'missed';

const HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** One item of a change notification, as Graph posts it for an Outlook event. */
export function changeNotification(subscription: Subscription, change: EventChange, event: StoredEvent) {
  const resource = `Users/${subscription.userId}/Events/${change.eventId}`;
  return {
    subscriptionId: subscription.id,
    subscriptionExpirationDateTime: formatTimestamp(subscription.expiresAt),
    changeType: change.changeType,
    resource,
    resourceData: {
      '@odata.type': '#Microsoft.Graph.Event',
      '@odata.id': resource,
      '@odata.etag': `W/"${event.changeKey}"`,
      id: change.eventId,
    },
    clientState: subscription.clientState,
    tenantId: subscription.tenantId,
  };
}

export function lifecycleNotification(subscription: Subscription, lifecycleEvent: LifecycleEvent) {
  return {
    subscriptionId: subscription.id,
    subscriptionExpirationDateTime: formatTimestamp(subscription.expiresAt),
    tenantId: subscription.tenantId,
    clientState: subscription.clientState,
    lifecycleEvent,
  };
}

/** The subscription a change notification body is for; undefined for lifecycle notifications. */
export function changeNotificationSubscription(body: string): string | undefined {
  try {
    const [item] =
      (JSON.parse(body) as { value?: { subscriptionId?: string; changeType?: string }[] }).value ?? [];
    return item?.changeType ? item.subscriptionId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every event write notifies the live subscriptions on that calendar that asked for its change type,
 * but for those waiting to be reauthorized: Graph pauses their delivery until the app reauthorizes or
 * renews them, and the changes of that time are not sent later (the app reads them by delta).
 */
export function notifyEventChanges(
  events: EventStore,
  subscriptions: SubscriptionStore,
  notifier: Notifier,
): void {
  events.onChange((change, event) => {
    for (const subscription of subscriptions.liveOf(change.userId)) {
      if (subscription.calendarId !== change.calendarId) continue;
      if (!subscription.changeTypes.includes(change.changeType)) continue;
      if (subscription.reauthorizationRequired) continue;
      notifier.send({
        url: subscription.notificationUrl,
        headers: HEADERS,
        body: JSON.stringify({ value: [changeNotification(subscription, change, event)] }),
      });
    }
  });
}

/** Sends a lifecycle notification; false when the subscription has no lifecycleNotificationUrl. */
export function sendLifecycleNotification(
  notifier: Notifier,
  subscription: Subscription,
  lifecycleEvent: LifecycleEvent,
): boolean {
  if (!subscription.lifecycleNotificationUrl) return false;
  notifier.send({
    url: subscription.lifecycleNotificationUrl,
    headers: HEADERS,
    body: JSON.stringify({ value: [lifecycleNotification(subscription, lifecycleEvent)] }),
  });
  return true;
}
