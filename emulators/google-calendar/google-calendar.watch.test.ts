import type { calendar_v3 } from '@googleapis/calendar';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  control,
  EVENT,
  failure,
  setUpPushReceiver,
  setUpSignedInCalendar,
} from './google-calendar.test-support.ts';

type Received = { headers: Record<string, string | string[] | undefined>; body: string };

let received: Received[] = [];
let failures: number[] = [];

const harness = setUpSignedInCalendar({ notificationRetries: 2, notificationRetryBaseDelayMs: 5 });
const pushes = setUpPushReceiver((headers, body) => {
  const status = failures.shift();
  if (status) return status;
  received.push({ headers, body });
  return undefined;
});
beforeEach(() => {
  received = [];
  failures = [];
});

const flush = () => control(harness.origin, 'notifications/flush');
const states = () => received.map((r) => r.headers['x-goog-resource-state']);
const numbers = () => received.map((r) => Number(r.headers['x-goog-message-number']));
const watch = (id = 'channel-1', extra: Partial<calendar_v3.Schema$Channel> = {}) =>
  harness.api.events.watch({
    calendarId: 'primary',
    requestBody: { id, type: 'web_hook', address: pushes.address(), token: 'secret-token', ...extra },
  });
const insert = (summary: string) =>
  harness.api.events.insert({ calendarId: 'primary', requestBody: { ...EVENT, summary } });

describe('events.watch', () => {
  it('opens a channel, sends the sync message, then one `exists` per change, with Google’s headers', async () => {
    const before = Date.now();
    const { data: channel } = await watch();
    expect(channel).toMatchObject({
      kind: 'api#channel',
      id: 'channel-1',
      resourceId: expect.stringMatching(/^[\w-]{27}$/),
      resourceUri: `${harness.origin}/calendar/v3/calendars/primary/events?alt=json`,
      token: 'secret-token',
      expiration: expect.stringMatching(/^\d+$/),
    });
    const expiration = Number(channel.expiration);
    expect(expiration).toBeGreaterThanOrEqual(before + 7 * 24 * 3600_000);
    expect(expiration).toBeLessThan(Date.now() + 7 * 24 * 3600_000 + 1000);

    const { data: event } = await insert('one');
    await harness.api.events.patch({
      calendarId: 'primary',
      eventId: event.id ?? '',
      requestBody: { summary: 'two' },
    });
    await harness.api.events.delete({ calendarId: 'primary', eventId: event.id ?? '' });
    await flush();

    expect(states()).toEqual(['sync', 'exists', 'exists', 'exists']);
    const [sync] = received;
    expect(sync?.body).toBe('');
    expect(sync?.headers).toMatchObject({
      'content-type': 'application/json; utf-8',
      'content-length': '0',
      'user-agent': expect.stringContaining('APIs-Google'),
      'x-goog-channel-id': 'channel-1',
      'x-goog-channel-token': 'secret-token',
      'x-goog-channel-expiration': new Date(expiration).toUTCString(),
      'x-goog-message-number': '1',
      'x-goog-resource-id': channel.resourceId,
      'x-goog-resource-uri': channel.resourceUri,
    });
    const sequence = numbers();
    expect(sequence[0]).toBe(1);
    for (let i = 1; i < sequence.length; i++) expect(sequence[i]).toBeGreaterThan(sequence[i - 1] ?? 0);
  });

  it('sends nothing on a stopped channel, and a second stop is 404', async () => {
    const { data: channel } = await watch();
    const stopped = await harness.api.channels.stop({
      requestBody: { id: channel.id, resourceId: channel.resourceId },
    });
    expect(stopped.status).toBe(204);
    await insert('after stop');
    await flush();
    expect(states()).toEqual(['sync']);
    const again = await failure(
      harness.api.channels.stop({ requestBody: { id: channel.id, resourceId: channel.resourceId } }),
    );
    expect(again.status).toBe(404);
    expect(again.body?.error.errors[0]?.reason).toBe('notFound');
  });

  it('sends nothing once the channel has expired (control route)', async () => {
    await watch();
    expect((await control(harness.origin, 'channels/channel-1/expire')).status).toBe(200);
    await insert('after expiry');
    await flush();
    expect(states()).toEqual(['sync']);
    const state = (await (await control(harness.origin, 'state', undefined, 'GET')).json()) as {
      channels: { live: boolean }[];
    };
    expect(state.channels[0]?.live).toBe(false);
  });

  it('caps the requested expiration, honours a shorter one, and refuses a live channel id twice', async () => {
    const shorter = Date.now() + 3600_000;
    expect(Number((await watch('short', { expiration: String(shorter) })).data.expiration)).toBe(shorter);
    const longer = Date.now() + 90 * 24 * 3600_000;
    expect(Number((await watch('long', { expiration: String(longer) })).data.expiration)).toBeLessThan(
      longer,
    );
    const duplicate = await failure(watch('short'));
    expect(duplicate.status).toBe(400);
    expect(duplicate.body?.error.errors[0]?.reason).toBe('channelIdNotUnique');
  });

  it('omits the token header when the channel has no token', async () => {
    await watch('no-token', { token: undefined });
    await flush();
    expect(received[0]?.headers['x-goog-channel-token']).toBeUndefined();
  });

  it('retries a delivery the receiver failed with a 5xx', async () => {
    await watch();
    await flush();
    failures = [503, 500];
    await insert('retried');
    await flush();
    expect(states()).toEqual(['sync', 'exists']);
    const state = (await (await control(harness.origin, 'notifications', undefined, 'GET')).json()) as {
      deliveries: { status: number; attempt: number }[];
    };
    expect(state.deliveries.map((d) => d.status)).toEqual([200, 503, 500, 200]);
  });

  it('does not retry a delivery the receiver refused with a 4xx, as Google does not', async () => {
    await watch();
    await flush();
    failures = [404];
    await insert('refused');
    await flush();
    expect(states()).toEqual(['sync']);
    const state = (await (await control(harness.origin, 'notifications', undefined, 'GET')).json()) as {
      deliveries: { status: number }[];
    };
    expect(state.deliveries.map((d) => d.status)).toEqual([200, 404]);
  });

  it('ages or expires live channels in bulk or by id (POST /_emulator/channels/expire)', async () => {
    await watch('one');
    await watch('two');
    const aged = await control(harness.origin, 'channels/expire', { id: 'one', inSeconds: 60 });
    const { channels } = (await aged.json()) as {
      channels: { id: string; expiration: string; live: boolean }[];
    };
    expect(channels).toHaveLength(1);
    expect(channels[0]).toMatchObject({ id: 'one', live: true });
    expect(Date.parse(channels[0]?.expiration ?? '')).toBeLessThanOrEqual(Date.now() + 60_000);

    const expired = (await (await control(harness.origin, 'channels/expire', {})).json()) as {
      channels: { id: string; live: boolean }[];
    };
    expect(expired.channels.map((c) => [c.id, c.live])).toEqual([
      ['one', false],
      ['two', false],
    ]);
    await flush();
    received = [];
    await insert('after expiry');
    await flush();
    expect(received).toEqual([]);
    expect((await control(harness.origin, 'channels/expire', { id: 'one' })).status).toBe(404);
  });

  it('drops and duplicates notifications when told to (notification faults)', async () => {
    await watch();
    await flush();
    expect((await control(harness.origin, 'notifications/faults', { mode: 'drop', times: 1 })).status).toBe(
      201,
    );
    await insert('dropped');
    await flush();
    expect(states()).toEqual(['sync']);
    await control(harness.origin, 'notifications/faults', { mode: 'duplicate', times: 1 });
    await insert('twice');
    await flush();
    expect(states()).toEqual(['sync', 'exists', 'exists']);
    expect(received[1]?.headers['x-goog-message-number']).toBe(received[2]?.headers['x-goog-message-number']);
    expect((await control(harness.origin, 'notifications/faults', { mode: 'bogus' })).status).toBe(400);
    await control(harness.origin, 'notifications/faults', { mode: 'drop' });
    expect((await control(harness.origin, 'notifications/faults', undefined, 'DELETE')).status).toBe(200);
    await insert('delivered');
    await flush();
    expect(states()).toHaveLength(4);
  });

  it('tells watchers `not_exists` when the calendar goes away', async () => {
    const work = (await harness.api.calendarList.list()).data.items?.find((c) => c.summary === 'Work');
    await harness.api.events.watch({
      calendarId: work?.id ?? '',
      requestBody: { id: 'work', type: 'web_hook', address: pushes.address() },
    });
    await control(harness.origin, `calendars/${encodeURIComponent(work?.id ?? '')}`, undefined, 'DELETE');
    await flush();
    expect(states()).toEqual(['sync', 'not_exists']);
    expect((await failure(harness.api.events.list({ calendarId: work?.id ?? '' }))).status).toBe(404);
  });
});
