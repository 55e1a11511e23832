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
import type { MicrosoftConfig } from '#server/config.ts';
import {
  ProviderRequestError,
  ProviderUnauthorizedError,
} from '#server/domain/integrations/integration-providers.port.ts';
import { systemClock } from '#server/providers/shared/system-clock.adapter.ts';
import {
  type CalendarEvent,
  CalendarGoneError,
  type CalendarTarget,
  type EventWrite,
  SyncTokenExpiredError,
} from '#server/sync/calendar-target.port.ts';
import { RateLimitedError } from '#server/sync/rate-limited-error.ts';
import {
  createMicrosoftCalendarEvents,
  MAX_SUBSCRIPTION_MINUTES,
} from './microsoft-calendar-events.adapter.ts';
import {
  newEventFields,
  TASK_TAG_EXPANSION,
  TASK_TAG_PROPERTY,
  transactionIdFor,
} from './microsoft-calendar-events.mapper.ts';
import { eventWrite } from './microsoft-graph-events.fixture.ts';
import { clientStateMatches, parseGraphNotifications } from './microsoft-webhook.ts';

let emulator: RunningEmulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let config: MicrosoftConfig;
let target: CalendarTarget;
let token: string;
let user: Client;
let calendarId: string;

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** Tomorrow (UTC) at `hour`, plus `days`. */
const at = (hour: number, days = 1) =>
  new Date(Math.floor(Date.now() / DAY) * DAY + days * DAY + hour * HOUR);
const graphTime = (instant: Date) => ({ dateTime: instant.toISOString().slice(0, 19), timeZone: 'UTC' });

const write = (overrides: Partial<EventWrite> = {}) =>
  eventWrite({
    title: 'Write the report',
    start: at(9),
    end: at(10),
    taskId: '6X7rM8997g3RQmvh',
    ...overrides,
  });

const control = (path: string, body: unknown = {}) =>
  fetch(`${emulator.origin}/_emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
const byId = (events: CalendarEvent[], id: string) => events.find((event) => event.id === id);
/** The event as Graph stores it, read by the user's own client. */
const raw = (id: string) =>
  user
    .api(`/me/events/${id}`)
    .header('Prefer', 'outlook.body-content-type="text"')
    .expand(TASK_TAG_EXPANSION)
    .get();
const userCreates = (subject: string, start: Date, end: Date, extra: Record<string, unknown> = {}) =>
  user
    .api(`/me/calendars/${calendarId}/events`)
    .post({ subject, start: graphTime(start), end: graphTime(end), ...extra });

beforeAll(async () => {
  emulator = await startMicrosoftEmulator();
  receiver = await startReceiver();
  config = {
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    authorityUrl: `${emulator.origin}/common`,
    graphUrl: emulator.origin,
  };
  target = createMicrosoftCalendarEvents(config, systemClock);
});
afterAll(async () => {
  await receiver.close();
  await emulator.close();
});
beforeEach(async () => {
  await control('reset');
  receiver.received.length = 0;
  receiver.state.mode = 'echo';
  const minted = await control('tokens', { email: 'ada.lovelace@example.com' });
  token = ((await minted.json()) as { access_token: string }).access_token;
  user = graphClient(emulator.origin, token);
  const calendars = (await user.api('/me/calendars').get()) as { value: { id: string; name: string }[] };
  calendarId = calendars.value.find((calendar) => calendar.name === 'Timeboxer')?.id ?? '';
});

describe('reading changes', () => {
  it('reads in full, then only what changed: creates, updates and deletes, with our tag', async () => {
    const theirs = await userCreates('Dentist', at(14), at(15), { categories: ['Red category'] });
    const ours = await target.create(token, calendarId, 'key-1', write());

    const first = await target.changes(token, calendarId, null);
    expect(first.full).toBe(true);
    expect(first.nextToken).toMatch(
      /^https:\/\/localhost:\d+\/v1\.0\/.+\$deltatoken=.+#window=\d{4}-\d{2}-\d{2}$/,
    );
    expect(first.events).toHaveLength(2);
    expect(byId(first.events, theirs.id)).toEqual({
      id: theirs.id,
      deleted: false,
      title: 'Dentist',
      start: at(14),
      end: at(15),
      allDay: false,
      date: null,
      busy: true,
      recurring: false,
      color: null,
      categories: ['Red category'],
      taskTag: null,
      otherSync: null,
      version: theirs.changeKey,
      updatedAt: expect.any(Date),
    });
    expect(byId(first.events, ours.id)).toMatchObject({
      title: 'Write the report',
      start: at(9),
      end: at(10),
      taskTag: '6X7rM8997g3RQmvh',
      version: ours.version,
    });

    await user
      .api(`/me/events/${theirs.id}`)
      .patch({ subject: 'Dentist (moved)', start: graphTime(at(16)), end: graphTime(at(17)) });
    await user.api(`/me/events/${ours.id}`).delete();
    const added = await userCreates('Lunch', at(12), at(13));

    const second = await target.changes(token, calendarId, first.nextToken);
    expect(second.full).toBe(false);
    expect(second.events).toHaveLength(3);
    expect(byId(second.events, theirs.id)).toMatchObject({
      title: 'Dentist (moved)',
      start: at(16),
      end: at(17),
    });
    expect(byId(second.events, ours.id)).toMatchObject({ deleted: true });
    expect(byId(second.events, added.id)).toMatchObject({ deleted: false, title: 'Lunch', taskTag: null });

    const third = await target.changes(token, calendarId, second.nextToken);
    expect(third).toMatchObject({ full: false, events: [] });
  });

  it('does not report an event moved out of the window as deleted', async () => {
    const theirs = await userCreates('Conference', at(9), at(17));
    const { nextToken } = await target.changes(token, calendarId, null);
    const farAway = at(9, 500);
    await user.api(`/me/events/${theirs.id}`).patch({
      start: graphTime(farAway),
      end: graphTime(new Date(farAway.getTime() + 8 * HOUR)),
    });
    const { events } = await target.changes(token, calendarId, nextToken);
    expect(events).toEqual([
      expect.objectContaining({ id: theirs.id, deleted: false, title: 'Conference', start: farAway }),
    ]);
  });

  it('reads the whole event when delta sends only what changed', async () => {
    await control('settings', { deltaChangedPropertiesOnly: true });
    const ours = await target.create(token, calendarId, 'key-thin', write({ category: 'Timeboxer' }));
    const { nextToken } = await target.changes(token, calendarId, null);
    await user.api(`/me/events/${ours.id}`).patch({ subject: 'Renamed in Outlook' });
    const { events } = await target.changes(token, calendarId, nextToken);
    expect(events).toEqual([
      expect.objectContaining({
        id: ours.id,
        title: 'Renamed in Outlook',
        start: at(9),
        end: at(10),
        categories: ['Timeboxer'],
        recurring: false,
        taskTag: '6X7rM8997g3RQmvh',
      }),
    ]);
  });

  it('follows nextLink pages to the deltaLink', async () => {
    for (let i = 0; i < 12; i++) await userCreates(`Event ${i}`, at(8, i + 1), at(9, i + 1));
    const paged = createMicrosoftCalendarEvents(config, systemClock, { pageSize: 5 });
    const { events, nextToken } = await paged.changes(token, calendarId, null);
    const state = (await (await fetch(`${emulator.origin}/_emulator/state`)).json()) as {
      requests: Record<string, number>;
    };
    expect(state.requests['GET /v1.0/me/calendars/:calendarId/calendarView/delta']).toBe(3);
    expect(nextToken).toContain('$deltatoken=');
    expect(events.map((event) => event.title).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `Event ${i}`).sort(),
    );
  });

  it('marks all-day events and occurrences of a series', async () => {
    const day = at(0, 2);
    await user.api(`/me/calendars/${calendarId}/events`).post({
      subject: 'Holiday',
      isAllDay: true,
      start: graphTime(day),
      end: graphTime(new Date(day.getTime() + DAY)),
    });
    await userCreates('Stand-up', at(9), at(9.25), {
      recurrence: {
        pattern: { type: 'daily', interval: 1 },
        range: { type: 'numbered', startDate: at(9).toISOString().slice(0, 10), numberOfOccurrences: 3 },
      },
    });
    const { events } = await target.changes(token, calendarId, null);
    expect(events.find((event) => event.title === 'Holiday')).toMatchObject({
      allDay: true,
      date: day.toISOString().slice(0, 10),
      start: null,
      end: null,
      recurring: false,
    });
    const standUps = events.filter((event) => event.title === 'Stand-up');
    expect(standUps).toHaveLength(3);
    expect(standUps.every((event) => event.recurring)).toBe(true);
  });

  it('reads the events between two times, a series one occurrence at a time, with whether each is busy', async () => {
    await userCreates('Busy', at(9), at(10));
    await userCreates('Free', at(11), at(12), { showAs: 'free' });
    await userCreates('Later', at(9, 5), at(10, 5));
    await userCreates('Stand-up', at(8), at(8.25), {
      recurrence: {
        pattern: { type: 'daily', interval: 1 },
        range: { type: 'numbered', startDate: at(8).toISOString().slice(0, 10), numberOfOccurrences: 5 },
      },
    });
    const events = await target.eventsBetween(token, calendarId, at(0), at(0, 3));
    const seen = events.map((event) => [event.title, event.start?.toISOString(), event.busy]).sort();
    expect(seen).toEqual([
      ['Busy', at(9).toISOString(), true],
      ['Free', at(11).toISOString(), false],
      ['Stand-up', at(8).toISOString(), true],
      ['Stand-up', at(8, 2).toISOString(), true],
    ]);
  });

  it('throws SyncTokenExpiredError when Graph refuses the delta link, or the window is old', async () => {
    const { nextToken } = await target.changes(token, calendarId, null);
    await control('delta/expire');
    expect(await caught(target.changes(token, calendarId, nextToken))).toBeInstanceOf(SyncTokenExpiredError);

    const fresh = await target.changes(token, calendarId, null);
    const later = createMicrosoftCalendarEvents(config, () => new Date(Date.now() + 40 * DAY));
    expect(await caught(later.changes(token, calendarId, fresh.nextToken))).toBeInstanceOf(
      SyncTokenExpiredError,
    );
    const elsewhere = fresh.nextToken.replace(/^https:\/\/localhost:\d+/, 'https://attacker.example');
    expect(await caught(target.changes(token, calendarId, elsewhere))).toBeInstanceOf(SyncTokenExpiredError);
  });

  it('throws CalendarGoneError for a calendar that is not there', async () => {
    const missing = 'AAMkAGI2TGuLAAA=';
    expect(await caught(target.changes(token, missing, null))).toBeInstanceOf(CalendarGoneError);
    expect(await caught(target.create(token, missing, 'key', write()))).toBeInstanceOf(CalendarGoneError);
    const channel = {
      id: 'c',
      address: `${receiver.base}/api/webhooks/microsoft`,
      secret: 's',
      ttlSeconds: 3600,
    };
    expect(await caught(target.watch(token, missing, channel))).toBeInstanceOf(CalendarGoneError);
  });
});

describe('writing events', () => {
  it('lands title, times in the user zone, category, privacy, reminder, body and tag', async () => {
    const description = 'https://app.todoist.com/app/task/6X7rM8997g3RQmvh';
    const created = await target.create(
      token,
      calendarId,
      'key-fields',
      write({ category: 'Timeboxer', private: true, reminderMinutes: 10, description }),
    );
    expect(created).toMatchObject({
      title: 'Write the report',
      start: at(9),
      end: at(10),
      taskTag: '6X7rM8997g3RQmvh',
    });
    const stored = await raw(created.id);
    expect(stored).toMatchObject({
      subject: 'Write the report',
      categories: ['Timeboxer'],
      sensitivity: 'private',
      isReminderOn: true,
      reminderMinutesBeforeStart: 10,
      body: { contentType: 'text', content: description },
      originalStartTimeZone: 'Europe/Berlin',
      singleValueExtendedProperties: [{ id: TASK_TAG_PROPERTY, value: '6X7rM8997g3RQmvh' }],
    });

    const updated = await target.update(
      token,
      calendarId,
      created.id,
      write({ title: 'Report (longer)', end: at(11), timeZone: 'UTC' }),
    );
    expect(updated).toMatchObject({
      id: created.id,
      title: 'Report (longer)',
      end: at(11),
      taskTag: '6X7rM8997g3RQmvh',
    });
    expect(updated.version).not.toBe(created.version);
    expect(await raw(created.id)).toMatchObject({
      categories: [],
      sensitivity: 'normal',
      isReminderOn: false,
      body: { content: '' },
    });
  });

  it('writes a dated task’s all-day event on its date, and switches it to a time and back', async () => {
    const date = at(0, 2).toISOString().slice(0, 10);
    const created = await target.create(token, calendarId, 'key-day', write({ date }));
    expect(created).toMatchObject({ allDay: true, date, start: null });
    expect(await raw(created.id)).toMatchObject({
      isAllDay: true,
      start: { dateTime: `${date}T00:00:00.0000000` },
      end: { dateTime: `${at(0, 3).toISOString().slice(0, 10)}T00:00:00.0000000` },
    });
    const timed = await target.update(token, calendarId, created.id, write());
    expect(timed).toMatchObject({ allDay: false, date: null, start: at(9), end: at(10) });
    const again = await target.update(token, calendarId, created.id, write({ date }));
    expect(again).toMatchObject({ allDay: true, date });
  });

  it('creates once under a retried clientKey, even after a lost answer', async () => {
    const first = await target.create(token, calendarId, 'key-retry', write());
    const again = await target.create(token, calendarId, 'key-retry', write());
    expect(again.id).toBe(first.id);

    // The first attempt reached Graph and made the event, but its answer was lost on the way back:
    // sent here as that attempt's exact request, then retried through the adapter.
    const lostAttempt = await user
      .api(`/me/calendars/${calendarId}/events`)
      .post(newEventFields(write({ title: 'Lost' }), transactionIdFor('key-lost', write().taskId)));
    const retried = await target.create(token, calendarId, 'key-lost', write({ title: 'Lost' }));
    expect(retried).toMatchObject({ id: lostAttempt.id, taskTag: '6X7rM8997g3RQmvh' });

    // An answer that never comes (our timeout) is a ProviderRequestError the caller can retry.
    const impatient = createMicrosoftCalendarEvents(config, systemClock, { timeoutMs: 200 });
    await control('faults', {
      kind: 'latency',
      latencyMs: 600,
      method: 'POST',
      path: '/v1.0/me/calendars',
      times: 1,
    });
    const timedOut = await caught(impatient.create(token, calendarId, 'key-slow', write({ title: 'Slow' })));
    expect(timedOut).toBeInstanceOf(ProviderRequestError);
    await target.create(token, calendarId, 'key-slow', write({ title: 'Slow' }));

    // A 5xx before anything was stored: the retry creates it, once.
    await control('faults', {
      kind: 'status',
      status: 500,
      method: 'POST',
      path: '/v1.0/me/calendars',
      times: 1,
    });
    expect(
      await caught(target.create(token, calendarId, 'key-500', write({ title: 'Five' }))),
    ).toBeInstanceOf(ProviderRequestError);
    await target.create(token, calendarId, 'key-500', write({ title: 'Five' }));

    const { events } = await target.changes(token, calendarId, null);
    expect(events.map((event) => event.title).sort()).toEqual(['Five', 'Lost', 'Slow', 'Write the report']);
    expect(byId(events, retried.id)).toMatchObject({ id: lostAttempt.id, title: 'Lost' });
  });

  it("finds the first attempt's event after Graph has forgotten the transactionId", async () => {
    await control('settings', { transactionIdWindowSeconds: 0 });
    const first = await target.create(token, calendarId, 'key-late', write());
    const late = await target.create(token, calendarId, 'key-late', write());
    expect(late.id).toBe(first.id);
    const other = await target.create(token, calendarId, 'key-other', write());
    expect(other.id).not.toBe(first.id);
    expect((await target.changes(token, calendarId, null)).events).toHaveLength(2);
  });

  it('deletes, and an event already gone is fine', async () => {
    const created = await target.create(token, calendarId, 'key-delete', write());
    await target.remove(token, calendarId, created.id);
    await target.remove(token, calendarId, created.id);
    expect((await target.changes(token, calendarId, null)).events).toEqual([]);
  });
});

describe('push notifications', () => {
  it('subscribes, receives notifications with our clientState, and stops', async () => {
    const address = `${receiver.base}/api/webhooks/microsoft`;
    const before = Date.now();
    const channel = await target.watch(token, calendarId, {
      id: 'channel-1',
      address,
      secret: 'a-secret-of-ours',
      ttlSeconds: 30 * 24 * 3600,
    });
    expect(channel.resourceId).toBeNull();
    expect(channel.expiresAt.getTime()).toBeGreaterThanOrEqual(
      before + MAX_SUBSCRIPTION_MINUTES * 60_000 - 1000,
    );
    expect(channel.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + MAX_SUBSCRIPTION_MINUTES * 60_000);
    const handshakes = receiver.received.filter((entry) => entry.query.validationToken !== undefined);
    expect(handshakes.map((entry) => entry.url.split('?')[0])).toEqual([
      '/api/webhooks/microsoft',
      '/api/webhooks/microsoft/lifecycle',
    ]);

    const pinged = await userCreates('Pinged', at(9), at(10));
    await control(`subscriptions/${channel.id}/lifecycle`, { lifecycleEvent: 'missed' });
    await flushNotifications(emulator.origin);
    const received = receiver.notifications().map((entry) => ({
      path: entry.url.split('?')[0],
      notifications: parseGraphNotifications(entry.body),
    }));
    const change = received.find((entry) => entry.path === '/api/webhooks/microsoft')?.notifications?.[0];
    // A create names the event and its change key then: the intake spares the read of our own writes.
    expect(change).toEqual({
      subscriptionId: channel.id,
      clientState: 'a-secret-of-ours',
      changed: { eventId: pinged.id, version: pinged.changeKey },
    });
    expect(clientStateMatches(change?.clientState, 'a-secret-of-ours')).toBe(true);
    const lifecycle = received.find((entry) => entry.path === '/api/webhooks/microsoft/lifecycle');
    expect(lifecycle?.notifications).toEqual([
      { subscriptionId: channel.id, clientState: 'a-secret-of-ours', lifecycleEvent: 'missed' },
    ]);

    await target.stopWatch(token, channel);
    await target.stopWatch(token, channel);
    receiver.received.length = 0;
    await userCreates('Unheard', at(11), at(12));
    await flushNotifications(emulator.origin);
    expect(receiver.notifications()).toEqual([]);
  });
});

describe('failures', () => {
  it('maps 401 to ProviderUnauthorizedError and 429 to RateLimitedError with Retry-After', async () => {
    expect(await caught(target.changes('not-a-token', calendarId, null))).toBeInstanceOf(
      ProviderUnauthorizedError,
    );
    await control('faults', {
      kind: 'rate-limit',
      retryAfterSeconds: 7,
      path: '/v1.0/me/calendars',
      times: 1,
    });
    const limited = await caught(target.changes(token, calendarId, null));
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterMs).toBe(7000);
    await control('faults', { kind: 'status', status: 503, path: '/v1.0/me/calendars', times: 1 });
    const unavailable = await caught(target.create(token, calendarId, 'k', write()));
    expect(unavailable).toMatchObject({ name: 'ProviderRequestError', status: 503 });
    expect(String((unavailable as Error).message)).not.toContain(token);
  });
});
