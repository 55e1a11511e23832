import type { Client } from '@microsoft/microsoft-graph-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import {
  CLIENT,
  caught,
  control,
  flushNotifications,
  inMinutes,
  notificationBodies,
  startMicrosoftEmulator,
  startReceiver,
  subscribeTo,
  timeboxerCalendar,
} from './microsoft.testing.ts';

let origin: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let client: Client;
let calendarId: string;
let userId: string;

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
  userId = (await client.api('/me').get()).id;
});

const subscribe = (overrides: Record<string, unknown> = {}) =>
  subscribeTo(client, receiver, calendarId, overrides);

const createEvent = (calendar = calendarId) =>
  client.api(`/me/calendars/${calendar}/events`).post({
    subject: 'Focus',
    start: { dateTime: '2030-05-06T09:00:00', timeZone: 'UTC' },
    end: { dateTime: '2030-05-06T10:00:00', timeZone: 'UTC' },
  });

const bodies = (path: string) => notificationBodies(receiver, path);

describe('creating a subscription', () => {
  it('runs the validation handshake on both URLs, then answers 201 with the subscription', async () => {
    const subscription = await subscribe();
    expect(subscription).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      resource: `me/calendars/${calendarId}/events`,
      applicationId: CLIENT.clientId,
      changeType: 'created,updated,deleted',
      clientState: 'secret-client-state',
      notificationUrl: `${receiver.base}/webhooks/microsoft?tenant=1`,
      lifecycleNotificationUrl: `${receiver.base}/webhooks/microsoft/lifecycle`,
      expirationDateTime: expect.stringMatching(/Z$/),
      creatorId: userId,
      includeResourceData: false,
      latestSupportedTlsVersion: 'v1_2',
    });
    const handshakes = receiver.received.filter((entry) => entry.query.validationToken !== undefined);
    expect(handshakes.map((entry) => entry.url.split('?')[0])).toEqual([
      '/webhooks/microsoft',
      '/webhooks/microsoft/lifecycle',
    ]);
    expect(handshakes[0]?.query.tenant).toBe('1');
    expect(handshakes[0]?.query.validationToken).toMatch(
      /^Validation: Testing client application reachability for subscription Request-Id: [0-9a-f-]{36}$/,
    );
    expect(handshakes[0]?.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('fails with ValidationError when the endpoint does not echo the token', async () => {
    receiver.state.mode = 'no-echo';
    const notFound = await caught(subscribe());
    expect(notFound).toMatchObject({ statusCode: 400, code: 'ValidationError' });
    expect(notFound?.message).toContain("HTTP status code is 'NotFound'");
    receiver.state.mode = 'wrong-token';
    const wrong = await caught(subscribe());
    expect(wrong).toMatchObject({ statusCode: 400, code: 'ValidationError' });
    expect(wrong?.message).toContain('Response must exactly match validationToken query parameter.');
    expect((await client.api('/subscriptions').get()).value).toEqual([]);
  });

  it('fails when the endpoint is too slow to answer the handshake', async () => {
    receiver.state.mode = 'slow';
    const error = await caught(subscribe());
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'InvalidRequest',
      message: 'Subscription validation request timed out.',
    });
  });

  it('rejects expiration times in the past or beyond the maximum for events', async () => {
    const past = await caught(subscribe({ expirationDateTime: inMinutes(-5) }));
    expect(past).toMatchObject({ statusCode: 400, code: 'ExtensionError' });
    const tooLong = await caught(subscribe({ expirationDateTime: inMinutes(10_081) }));
    expect(tooLong).toMatchObject({ statusCode: 400, code: 'ExtensionError' });
    expect(tooLong?.message).toContain('10080 minutes');
    const badResource = await caught(subscribe({ resource: 'me/messages' }));
    expect(badResource?.statusCode).toBe(400);
  });
});

describe('managing a subscription', () => {
  it('renews, lists, gets and deletes', async () => {
    const subscription = await subscribe();
    const later = inMinutes(9000);
    const renewed = await client
      .api(`/subscriptions/${subscription.id}`)
      .patch({ expirationDateTime: later });
    expect(Date.parse(renewed.expirationDateTime)).toBe(Date.parse(later));
    expect((await client.api('/subscriptions').get()).value.map((s: { id: string }) => s.id)).toEqual([
      subscription.id,
    ]);
    expect((await client.api(`/subscriptions/${subscription.id}`).get()).id).toBe(subscription.id);
    await client.api(`/subscriptions/${subscription.id}/reauthorize`).post({});
    await client.api(`/subscriptions/${subscription.id}`).delete();
    const gone = await caught(client.api(`/subscriptions/${subscription.id}`).get());
    expect(gone).toMatchObject({ statusCode: 404, code: 'ResourceNotFound' });
  });

  it('stops existing once expired through the control route', async () => {
    const subscription = await subscribe();
    expect((await control(origin, `subscriptions/${subscription.id}/expire`)).status).toBe(200);
    expect((await caught(client.api(`/subscriptions/${subscription.id}`).get()))?.statusCode).toBe(404);
    await createEvent();
    await flushNotifications(origin);
    expect(receiver.notifications()).toEqual([]);
  });
});

describe('change notifications', () => {
  it('posts created, updated and deleted notifications with the clientState', async () => {
    const subscription = await subscribe();
    const event = await createEvent();
    await client.api(`/me/events/${event.id}`).patch({ subject: 'Focus time' });
    await client.api(`/me/events/${event.id}`).delete();
    await createEvent((await client.api('/me/calendar').get()).id);
    await flushNotifications(origin);

    const received = bodies('/webhooks/microsoft');
    expect(received.map((body) => body.value[0]?.changeType)).toEqual(['created', 'updated', 'deleted']);
    expect(received[0]?.value[0]).toEqual({
      subscriptionId: subscription.id,
      subscriptionExpirationDateTime: subscription.expirationDateTime,
      changeType: 'created',
      resource: `Users/${userId}/Events/${event.id}`,
      resourceData: {
        '@odata.type': '#Microsoft.Graph.Event',
        '@odata.id': `Users/${userId}/Events/${event.id}`,
        '@odata.etag': `W/"${event.changeKey}"`,
        id: event.id,
      },
      clientState: 'secret-client-state',
      tenantId: '9188040d-6c67-4c5b-b112-36a304b66dad',
    });
    const notification = receiver.notifications()[0];
    expect(notification?.url).toBe('/webhooks/microsoft?tenant=1');
    expect(notification?.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('only sends the change types asked for, for the default calendar with me/events', async () => {
    await subscribe({ changeType: 'deleted', resource: '/me/events' });
    const event = await client.api('/me/events').post({
      subject: 'Default calendar',
      start: { dateTime: '2030-05-06T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-05-06T10:00:00', timeZone: 'UTC' },
    });
    await client.api(`/me/events/${event.id}`).delete();
    await flushNotifications(origin);
    expect(bodies('/webhooks/microsoft').map((body) => body.value[0]?.changeType)).toEqual(['deleted']);
  });

  it('retries a delivery the receiver failed', async () => {
    await subscribe();
    receiver.state.failuresLeft = 1;
    await createEvent();
    await flushNotifications(origin);
    const [failed, retried] = bodies('/webhooks/microsoft');
    expect(retried).toEqual(failed);
    const state = await (await fetch(`${origin}/_emulator/state`)).json();
    expect(
      state.notifications.map((d: { attempt: number; status: number }) => [d.attempt, d.status]),
    ).toEqual([
      [1, 500],
      [2, 202],
    ]);
  });

  it.each([
    ['drop', 0],
    ['duplicate', 2],
  ])('applies the %s notification fault', async (mode, count) => {
    await subscribe();
    expect((await control(origin, 'notifications/faults', { mode, times: 1 })).status).toBe(201);
    await createEvent();
    await flushNotifications(origin);
    expect(bodies('/webhooks/microsoft')).toHaveLength(count);
  });

  it('reorders and delays notifications on request, and clears faults', async () => {
    await subscribe();
    await control(origin, 'notifications/faults', { mode: 'reorder', times: 1 });
    const first = await createEvent();
    const second = await createEvent();
    await flushNotifications(origin);
    expect(bodies('/webhooks/microsoft').map((body) => body.value[0]?.resource)).toEqual([
      `Users/${userId}/Events/${second.id}`,
      `Users/${userId}/Events/${first.id}`,
    ]);
    await control(origin, 'notifications/faults', { mode: 'delay', delayMs: 150 });
    await fetch(`${origin}/_emulator/notifications/faults`, { method: 'DELETE' });
    const started = Date.now();
    await createEvent();
    await flushNotifications(origin);
    expect(Date.now() - started).toBeLessThan(150);
  });
});
