import { type Client, ResponseType } from '@microsoft/microsoft-graph-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import {
  caught,
  control,
  flushNotifications,
  graphClient,
  inMinutes,
  notificationBodies,
  startMicrosoftEmulator,
  startReceiver,
  subscribeTo,
  timeboxerCalendar,
  tokensFor,
} from './microsoft.testing.ts';

/**
 * Lifecycle notifications and what they mean for delivery (docs/provider-facts.md §3): after
 * `reauthorizationRequired` change notifications pause until the app reauthorizes or renews the
 * subscription; `subscriptionRemoved` comes only when the app lost access; a subscription that just
 * expires stops without a word.
 */

let origin: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let client: Client;
let calendarId: string;

setUpEmulator(startMicrosoftEmulator, (started) => {
  origin = started.origin;
});
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  receiver.received.length = 0;
  receiver.state.mode = 'echo';
  receiver.state.failuresLeft = 0;
  ({ client, calendarId } = await timeboxerCalendar(origin));
});

const subscribe = (overrides: Record<string, unknown> = {}) =>
  subscribeTo(client, receiver, calendarId, overrides);
const createEvent = (subject = 'Focus') =>
  client.api(`/me/calendars/${calendarId}/events`).post({
    subject,
    start: { dateTime: '2030-05-06T09:00:00', timeZone: 'UTC' },
    end: { dateTime: '2030-05-06T10:00:00', timeZone: 'UTC' },
  });
const bodies = (path: string) => notificationBodies(receiver, path);
const lifecycleEvents = () =>
  bodies('/webhooks/microsoft/lifecycle').map((body) => body.value[0]?.lifecycleEvent);
/** The ids of the events the change notifications named. */
const notifiedEvents = () =>
  bodies('/webhooks/microsoft').map(
    (body) => (body.value[0]?.resourceData as { id?: string } | undefined)?.id,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('lifecycle notifications', () => {
  it.each(['reauthorizationRequired', 'missed', 'subscriptionRemoved'])(
    'sends %s to the lifecycle URL',
    async (lifecycleEvent) => {
      const subscription = await subscribe();
      expect(
        (await control(origin, `subscriptions/${subscription.id}/lifecycle`, { lifecycleEvent })).status,
      ).toBe(202);
      await flushNotifications(origin);
      expect(bodies('/webhooks/microsoft/lifecycle')).toEqual([
        {
          value: [
            {
              subscriptionId: subscription.id,
              subscriptionExpirationDateTime: subscription.expirationDateTime,
              tenantId: '9188040d-6c67-4c5b-b112-36a304b66dad',
              clientState: 'secret-client-state',
              lifecycleEvent,
            },
          ],
        },
      ]);
      const after = await caught(client.api(`/subscriptions/${subscription.id}`).get());
      expect(after?.statusCode).toBe(lifecycleEvent === 'subscriptionRemoved' ? 404 : undefined);
    },
  );
});

describe('change notifications after reauthorizationRequired', () => {
  const requireReauthorization = (id: string) =>
    control(origin, `subscriptions/${id}/lifecycle`, { lifecycleEvent: 'reauthorizationRequired' });

  it('pause until POST /subscriptions/{id}/reauthorize, which answers 204; the pause’s changes are not sent later', async () => {
    const subscription = await subscribe();
    await requireReauthorization(subscription.id);
    const missed = await createEvent('Made during the pause');
    await flushNotifications(origin);
    expect(lifecycleEvents()).toEqual(['reauthorizationRequired']);
    expect(bodies('/webhooks/microsoft')).toEqual([]);
    // The subscription itself is still there, with its expiry.
    const kept = await client.api(`/subscriptions/${subscription.id}`).get();
    expect(kept.expirationDateTime).toBe(subscription.expirationDateTime);

    const answer: Response = await client
      .api(`/subscriptions/${subscription.id}/reauthorize`)
      .responseType(ResponseType.RAW)
      .post(undefined);
    expect(answer.status).toBe(204);
    expect(await answer.text()).toBe('');
    expect((await client.api(`/subscriptions/${subscription.id}`).get()).expirationDateTime).toBe(
      subscription.expirationDateTime,
    );

    const after = await createEvent('Made after reauthorizing');
    await flushNotifications(origin);
    expect(notifiedEvents()).toEqual([after.id]);
    expect(notifiedEvents()).not.toContain(missed.id);
  });

  it('resume with a renewal (PATCH expirationDateTime) too', async () => {
    const subscription = await subscribe();
    await requireReauthorization(subscription.id);
    await createEvent('Made during the pause');
    await client.api(`/subscriptions/${subscription.id}`).patch({ expirationDateTime: inMinutes(5000) });
    const after = await createEvent('Made after renewing');
    await flushNotifications(origin);
    expect(notifiedEvents()).toEqual([after.id]);
  });

  it('pause only for that subscription', async () => {
    const paused = await subscribe();
    await subscribe({ notificationUrl: `${receiver.base}/webhooks/microsoft?tenant=2` });
    await requireReauthorization(paused.id);
    await createEvent();
    await flushNotifications(origin);
    expect(receiver.notifications().map((entry) => entry.url)).toContain('/webhooks/microsoft?tenant=2');
    expect(receiver.notifications().map((entry) => entry.url)).not.toContain('/webhooks/microsoft?tenant=1');
  });

  it('pause after the reminder Graph sends by itself near expiry', async () => {
    await control(origin, 'settings', { reauthorizationLeadSeconds: 5000 * 60 });
    await subscribe({ expirationDateTime: inMinutes(4000) });
    await sleep(50);
    await createEvent();
    await flushNotifications(origin);
    expect(lifecycleEvents()).toEqual(['reauthorizationRequired']);
    expect(bodies('/webhooks/microsoft')).toEqual([]);
  });

  it('reauthorize answers 404 for a subscription the caller does not have', async () => {
    const unknown = await caught(
      client.api('/subscriptions/00000000-0000-0000-0000-000000000000/reauthorize').post(undefined),
    );
    expect(unknown).toMatchObject({ statusCode: 404, code: 'ResourceNotFound' });
  });
});

describe('lifecycle notifications Graph sends by itself', () => {
  it('expire-soon sends reauthorizationRequired now; a renewal keeps the subscription', async () => {
    const subscription = await subscribe();
    const aged = await control(origin, 'subscriptions/expire-soon', { id: subscription.id, inSeconds: 0.3 });
    expect(await aged.json()).toMatchObject({
      subscriptions: [{ id: subscription.id, reauthorizationRequired: true }],
    });
    await flushNotifications(origin);
    expect(lifecycleEvents()).toEqual(['reauthorizationRequired']);
    await client.api(`/subscriptions/${subscription.id}`).patch({ expirationDateTime: inMinutes(4000) });
    await sleep(400);
    await flushNotifications(origin);
    expect(lifecycleEvents()).toEqual(['reauthorizationRequired']);
    expect((await client.api(`/subscriptions/${subscription.id}`).get()).id).toBe(subscription.id);
  });

  it('stops a subscription that was not renewed at expiry, and says nothing of it', async () => {
    const subscription = await subscribe();
    expect((await control(origin, 'subscriptions/expire-soon', { inSeconds: 0.1 })).status).toBe(200);
    await sleep(250);
    await flushNotifications(origin);
    // Only the reminder: an expiry is no subscriptionRemoved (that one means access was lost).
    expect(lifecycleEvents()).toEqual(['reauthorizationRequired']);
    expect((await caught(client.api(`/subscriptions/${subscription.id}`).get()))?.statusCode).toBe(404);
    await createEvent();
    await flushNotifications(origin);
    expect(bodies('/webhooks/microsoft')).toEqual([]);
    expect((await control(origin, 'subscriptions/expire-soon', { id: subscription.id })).status).toBe(404);
  });

  it('sends missed when a change notification could not be delivered after every retry', async () => {
    const subscription = await subscribe();
    receiver.state.failuresLeft = 3; // the first attempt and both retries of the test emulator
    await createEvent();
    await flushNotifications(origin);
    expect(lifecycleEvents()).toEqual(['missed']);
    expect(bodies('/webhooks/microsoft/lifecycle')[0]?.value[0]).toMatchObject({
      subscriptionId: subscription.id,
      clientState: 'secret-client-state',
    });
  });
});

describe('subscriptionRemoved when the app loses access', () => {
  /** Grace's subscription on her default calendar, beside Ada's. */
  const gracesSubscription = async () => {
    const grace = graphClient(origin, (await tokensFor(origin, 'grace@example.com')).access_token);
    return subscribeTo(grace, receiver, '', {
      resource: 'me/events',
      notificationUrl: `${receiver.base}/webhooks/microsoft?tenant=grace`,
    });
  };
  const removedSubscriptions = () =>
    bodies('/webhooks/microsoft/lifecycle')
      .map((body) => body.value[0])
      .filter((item) => item?.lifecycleEvent === 'subscriptionRemoved')
      .map((item) => item?.subscriptionId);

  it('sends it when the user’s tokens are revoked, and removes only their subscriptions', async () => {
    const ada = await subscribe();
    const grace = await gracesSubscription();
    const revoked = await control(origin, 'refresh-tokens/revoke', { email: 'ada.lovelace@example.com' });
    expect(await revoked.json()).toMatchObject({ subscriptionsRemoved: 1 });
    await flushNotifications(origin);
    expect(removedSubscriptions()).toEqual([ada.id]);
    // Ada's access token still works until it expires; the subscription is gone all the same.
    expect((await caught(client.api(`/subscriptions/${ada.id}`).get()))?.statusCode).toBe(404);
    await createEvent();
    await flushNotifications(origin);
    expect(bodies('/webhooks/microsoft')).toEqual([]);
    const state = (await (await fetch(`${origin}/_emulator/state`)).json()) as {
      subscriptions: { id: string; expired: boolean }[];
    };
    expect(state.subscriptions.map((entry) => [entry.id, entry.expired])).toEqual([[grace.id, false]]);
  });

  it('sends it when the user removes the app’s consent; the app’s tokens stop working', async () => {
    const subscription = await subscribe();
    const removed = await control(origin, 'consent/revoke', { email: 'ada.lovelace@example.com' });
    const answer = (await removed.json()) as { grantsRemoved: number; subscriptionsRemoved: number };
    expect(answer.subscriptionsRemoved).toBe(1);
    expect(answer.grantsRemoved).toBeGreaterThan(0);
    await flushNotifications(origin);
    expect(removedSubscriptions()).toEqual([subscription.id]);
    expect((await caught(client.api('/me').get()))?.statusCode).toBe(401);
  });

  it('sends nothing for a subscription without a lifecycle URL, which is removed all the same', async () => {
    const subscription = await subscribe({ lifecycleNotificationUrl: null });
    await control(origin, 'refresh-tokens/revoke', { email: 'ada.lovelace@example.com' });
    await flushNotifications(origin);
    expect(lifecycleEvents()).toEqual([]);
    expect((await caught(client.api(`/subscriptions/${subscription.id}`).get()))?.statusCode).toBe(404);
  });
});
