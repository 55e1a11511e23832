import type { Client } from '@microsoft/microsoft-graph-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CLIENT,
  flushNotifications,
  graphClient,
  type RunningEmulator,
  startMicrosoftEmulator,
  startReceiver,
} from '#emulators/microsoft/microsoft.testing.ts';
import { ProviderUnauthorizedError } from '#server/domain/integrations/integration-providers.port.ts';
import { systemClock } from '#server/providers/shared/system-clock.adapter.ts';
import type { CalendarTarget, WatchChannel } from '#server/sync/calendar-target.port.ts';
import { createMicrosoftCalendarEvents } from './microsoft-calendar-events.adapter.ts';
import { parseGraphNotifications } from './microsoft-webhook.ts';

/**
 * Renewing a Graph subscription in place (`renewWatch`, PATCH of its expiry): the app's answer to
 * `reauthorizationRequired`, after which Graph holds the subscription's change notifications back until
 * it is renewed or reauthorized (docs/provider-facts.md §3).
 */

let emulator: RunningEmulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let target: CalendarTarget;
let token: string;
let user: Client;
let calendarId: string;

const HOUR = 3600_000;
const control = (path: string, body: unknown = {}) =>
  fetch(`${emulator.origin}/_emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const userCreates = (subject: string) =>
  user.api(`/me/calendars/${calendarId}/events`).post({
    subject,
    start: { dateTime: '2030-05-06T09:00:00', timeZone: 'UTC' },
    end: { dateTime: '2030-05-06T10:00:00', timeZone: 'UTC' },
  });
/** The ids of the events the change notifications named, in order. */
const notifiedEvents = () =>
  receiver
    .notifications()
    .filter((entry) => entry.url.split('?')[0] === '/api/webhooks/microsoft')
    .flatMap((entry) => parseGraphNotifications(entry.body) ?? [])
    .map((notification) => notification.changed?.eventId);
const subscribe = (): Promise<WatchChannel> =>
  target.watch(token, calendarId, {
    id: 'channel-1',
    address: `${receiver.base}/api/webhooks/microsoft`,
    secret: 'a-secret-of-ours',
    ttlSeconds: 3600,
  });

beforeAll(async () => {
  emulator = await startMicrosoftEmulator();
  receiver = await startReceiver();
  target = createMicrosoftCalendarEvents(
    {
      clientId: CLIENT.clientId,
      clientSecret: CLIENT.clientSecret,
      authorityUrl: `${emulator.origin}/common`,
      graphUrl: emulator.origin,
    },
    systemClock,
  );
});
afterAll(async () => {
  await receiver.close();
  await emulator.close();
});
beforeEach(async () => {
  await control('reset');
  receiver.received.length = 0;
  const minted = await control('tokens', { email: 'ada.lovelace@example.com' });
  token = ((await minted.json()) as { access_token: string }).access_token;
  user = graphClient(emulator.origin, token);
  const calendars = (await user.api('/me/calendars').get()) as { value: { id: string; name: string }[] };
  calendarId = calendars.value.find((calendar) => calendar.name === 'Timeboxer')?.id ?? '';
});

describe('renewWatch (Graph)', () => {
  it('extends the subscription in place, and its paused change notifications flow again', async () => {
    const channel = await subscribe();
    await control(`subscriptions/${channel.id}/lifecycle`, { lifecycleEvent: 'reauthorizationRequired' });
    await userCreates('Held back');
    await flushNotifications(emulator.origin);
    expect(notifiedEvents()).toEqual([]);

    const renewed = await target.renewWatch?.(token, channel, 3 * 24 * 3600);
    expect(renewed?.id).toBe(channel.id);
    expect(renewed?.resourceId).toBeNull();
    expect(renewed?.expiresAt.getTime()).toBeGreaterThan(channel.expiresAt.getTime() + 24 * HOUR);

    const heard = await userCreates('Heard');
    await flushNotifications(emulator.origin);
    expect(notifiedEvents()).toEqual([heard.id]);
    // The clientState stays the one the channel was opened with.
    const [last] = receiver.notifications().slice(-1);
    expect(parseGraphNotifications(last?.body ?? '')?.[0]?.clientState).toBe('a-secret-of-ours');
  });

  it('answers null for a subscription Graph no longer has: expired, removed or never made', async () => {
    const expired = await subscribe();
    await control(`subscriptions/${expired.id}/expire`);
    expect(await target.renewWatch?.(token, expired, 3600)).toBeNull();
    const removed = await subscribe();
    await control(`subscriptions/${removed.id}/lifecycle`, { lifecycleEvent: 'subscriptionRemoved' });
    expect(await target.renewWatch?.(token, removed, 3600)).toBeNull();
    const unknown = { id: '00000000-0000-0000-0000-000000000000', resourceId: null, expiresAt: new Date() };
    expect(await target.renewWatch?.(token, unknown, 3600)).toBeNull();
  });

  it('fails as unauthorized with a token Graph does not take', async () => {
    const channel = await subscribe();
    await expect(target.renewWatch?.('not-a-token', channel, 3600)).rejects.toBeInstanceOf(
      ProviderUnauthorizedError,
    );
  });
});
