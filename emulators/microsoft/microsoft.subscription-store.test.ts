import { describe, expect, it } from 'vitest';
import type { Notifier } from '../shared/notifier.ts';
import { type EventFields, EventStore } from './microsoft.event-store.ts';
import { notifyEventChanges } from './microsoft.notifications.ts';
import { untouchable } from './microsoft.store-testing.ts';
import { type Subscription, SubscriptionStore } from './microsoft.subscription-store.ts';

const HOUR_MS = 3_600_000;

function details(userId: string, calendarId: string, applicationId = 'app') {
  return {
    userId,
    applicationId,
    tenantId: 'tenant',
    resource: 'me/events',
    calendarId,
    changeTypes: ['created', 'updated', 'deleted'] as Subscription['changeTypes'],
    notificationUrl: `https://hooks.example.test/${userId}`,
    lifecycleNotificationUrl: null,
    clientState: null,
    latestSupportedTlsVersion: 'v1_2',
    expiresAt: Date.now() + HOUR_MS,
  };
}

const fields = { subject: 'Plan', start: Date.UTC(2030, 4, 1, 9), end: Date.UTC(2030, 4, 1, 10) };

describe('SubscriptionStore', () => {
  it("notifies an event's calendar's subscriptions without reading any other user's", () => {
    const subscriptions = new SubscriptionStore();
    for (let index = 0; index < 50; index += 1) {
      const other = subscriptions.create(details(`other-${index}`, 'default'));
      untouchable(other, 'userId', 'calendarId', 'expiresAt', 'changeTypes', 'applicationId');
    }
    const first = subscriptions.create(details('ada', 'default'));
    subscriptions.create(details('ada', 'timeboxer'));
    const third = subscriptions.create(details('ada', 'default', 'other-app'));
    const events = new EventStore();
    const sent: string[] = [];
    notifyEventChanges(events, subscriptions, {
      send: (notification: { body: string }) => sent.push(notification.body),
    } as unknown as Notifier);

    events.create('ada', 'default', { ...fields } as unknown as EventFields, null);
    expect(sent.map((body) => JSON.parse(body).value[0].subscriptionId)).toEqual([first.id, third.id]);
    expect(subscriptions.liveOf('ada')).toHaveLength(3);
    expect(subscriptions.liveOf('nobody')).toEqual([]);
  });

  it("lists one user's live subscriptions in the order made, and forgets deleted ones", () => {
    const subscriptions = new SubscriptionStore();
    const first = subscriptions.create(details('ada', 'default'));
    const grace = subscriptions.create(details('grace', 'default'));
    const second = subscriptions.create(details('ada', 'timeboxer'));
    const third = subscriptions.create(details('ada', 'default'));
    expect(subscriptions.liveOf('ada')).toEqual([first, second, third]);
    subscriptions.expire(second.id);
    expect(subscriptions.liveOf('ada')).toEqual([first, third]);
    expect(subscriptions.delete(first.id)).toBe(true);
    expect(subscriptions.delete(first.id)).toBe(false);
    expect(subscriptions.liveOf('ada')).toEqual([third]);
    expect(subscriptions.live()).toEqual([grace, third]);
    expect(subscriptions.snapshot().subscriptions.map((s) => [s.id, s.expired])).toEqual([
      [grace.id, false],
      [second.id, true],
      [third.id, false],
    ]);
    subscriptions.reset();
    expect(subscriptions.liveOf('ada')).toEqual([]);
  });
});
