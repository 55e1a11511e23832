import type { calendar_v3 } from '@googleapis/calendar';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  control,
  EVENT,
  failure,
  setUpPushReceiver,
  setUpSignedInCalendar,
  signIn,
} from './google-calendar.test-support.ts';

let workId: string;
let received: Record<string, string | string[] | undefined>[] = [];

const harness = setUpSignedInCalendar();

const pushes = setUpPushReceiver((headers) => {
  received.push(headers);
});
beforeEach(async () => {
  received = [];
  const calendars = (await harness.api.calendarList.list()).data.items ?? [];
  workId = calendars.find((c) => c.summary === 'Work')?.id ?? '';
});

const insert = (requestBody: calendar_v3.Schema$Event = {}, calendarId = 'primary') =>
  harness.api.events.insert({ calendarId, requestBody: { ...EVENT, ...requestBody } }).then((r) => r.data);

/** The sync token a full listing of the calendar ends with. */
const syncTokenOf = async (calendarId: string) =>
  (await harness.api.events.list({ calendarId })).data.nextSyncToken ?? '';

const move = (eventId: string, destination = workId, calendarId = 'primary') =>
  harness.api.events.move({ calendarId, eventId, destination });

describe('events.move', () => {
  it('moves the event with its id, iCalUID and every property, as the destination shows it', async () => {
    const event = await insert({
      id: 'tb0task0123',
      colorId: '5',
      description: 'https://app.todoist.com/app/task/123',
      location: 'Desk',
      visibility: 'private',
      transparency: 'transparent',
      reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 5 }] },
      extendedProperties: { private: { timeboxerTaskId: '123' }, shared: { origin: 'timeboxer' } },
    });

    const { status, data: moved } = await harness.api.events.move({
      calendarId: 'primary',
      eventId: event.id ?? '',
      destination: workId,
      sendUpdates: 'none',
    });
    expect(status).toBe(200);
    const { etag, updated, htmlLink, organizer, ...rest } = moved;
    const { etag: _e, updated: _u, htmlLink: _h, organizer: _o, ...before } = event;
    expect(rest).toEqual(before);
    expect(moved).toMatchObject({
      kind: 'calendar#event',
      id: 'tb0task0123',
      iCalUID: 'tb0task0123@google.com',
      status: 'confirmed',
      colorId: '5',
      extendedProperties: { private: { timeboxerTaskId: '123' }, shared: { origin: 'timeboxer' } },
      organizer: { email: workId, displayName: 'Work', self: true },
      created: event.created,
    });
    expect(etag).toMatch(/^"\d+"$/);
    expect(etag).not.toBe(event.etag);
    expect(htmlLink).not.toBe(event.htmlLink);
    expect(Date.parse(updated ?? '')).toBeGreaterThanOrEqual(Date.parse(event.updated ?? ''));

    const there = (await harness.api.events.get({ calendarId: workId, eventId: 'tb0task0123' })).data;
    expect(there).toEqual(moved);
    const gone = await failure(harness.api.events.get({ calendarId: 'primary', eventId: 'tb0task0123' }));
    expect(gone.status).toBe(404);
    expect(gone.body?.error.errors[0]?.reason).toBe('notFound');
    const listed = (await harness.api.events.list({ calendarId: 'primary' })).data.items ?? [];
    expect(listed).toEqual([]);
  });

  it('shows the event cancelled in the source’s incremental sync and new in the destination’s', async () => {
    const event = await insert();
    const sourceToken = await syncTokenOf('primary');
    const destinationToken = await syncTokenOf(workId);

    const moved = (await move(event.id ?? '')).data;

    const source = (await harness.api.events.list({ calendarId: 'primary', syncToken: sourceToken })).data;
    expect(source.items).toEqual([
      { kind: 'calendar#event', etag: expect.any(String), id: event.id, status: 'cancelled' },
    ]);
    const destination = (await harness.api.events.list({ calendarId: workId, syncToken: destinationToken }))
      .data;
    expect(destination.items).toEqual([moved]);

    const quiet = (
      await harness.api.events.list({ calendarId: 'primary', syncToken: source.nextSyncToken ?? '' })
    ).data;
    expect(quiet.items).toEqual([]);
  });

  it('moves an event back to the calendar it came from, and a whole recurring event', async () => {
    const event = await insert();
    await move(event.id ?? '');
    const back = (await move(event.id ?? '', 'primary', workId)).data;
    expect(back).toMatchObject({ id: event.id, status: 'confirmed', iCalUID: event.iCalUID });
    expect((await harness.api.events.get({ calendarId: 'primary', eventId: event.id ?? '' })).data).toEqual(
      back,
    );
    expect(
      (await failure(harness.api.events.get({ calendarId: workId, eventId: event.id ?? '' }))).status,
    ).toBe(404);

    const series = await insert({
      start: { dateTime: '2030-05-06T09:00:00', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2030-05-06T10:00:00', timeZone: 'Europe/Berlin' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    const movedSeries = (await move(series.id ?? '')).data;
    expect(movedSeries.recurrence).toEqual(['RRULE:FREQ=DAILY;COUNT=3']);
    const instances =
      (await harness.api.events.list({ calendarId: workId, singleEvents: true })).data.items ?? [];
    expect(instances.map((i) => i.recurringEventId)).toEqual([series.id, series.id, series.id]);
    const left =
      (await harness.api.events.list({ calendarId: 'primary', singleEvents: true })).data.items ?? [];
    expect(left.map((e) => e.id)).toEqual([event.id]);
  });

  it('tells the watchers of both calendars', async () => {
    const event = await insert();
    const channel = (calendarId: string, id: string) =>
      harness.api.events.watch({
        calendarId,
        requestBody: { id, type: 'web_hook', address: pushes.address() },
      });
    const source = (await channel('primary', 'source')).data;
    const destination = (await channel(workId, 'destination')).data;
    await control(harness.origin, 'notifications/flush');
    received = [];

    await move(event.id ?? '');
    await control(harness.origin, 'notifications/flush');
    const seen = received.map((h) => [h['x-goog-channel-id'], h['x-goog-resource-state']]);
    expect(seen).toHaveLength(2);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['source', 'exists'],
        ['destination', 'exists'],
      ]),
    );
    const byChannel = Object.fromEntries(received.map((h) => [h['x-goog-channel-id'], h]));
    expect(byChannel.source?.['x-goog-resource-id']).toBe(source.resourceId);
    expect(byChannel.destination?.['x-goog-resource-id']).toBe(destination.resourceId);
  });
});

describe('events.move errors', () => {
  it('404 for an unknown event, an unknown calendar, a deleted event or one already moved away', async () => {
    const event = await insert();
    const expect404 = async (call: Promise<unknown>) => {
      const result = await failure(call);
      expect(result.status).toBe(404);
      expect(result.body?.error.errors[0]?.reason).toBe('notFound');
    };
    await expect404(move('unknown0event'));
    await expect404(move(event.id ?? '', 'nobody@example.com'));
    await expect404(move(event.id ?? '', workId, 'nobody@example.com'));

    await move(event.id ?? '');
    await expect404(move(event.id ?? ''));

    const deleted = await insert();
    await harness.api.events.delete({ calendarId: 'primary', eventId: deleted.id ?? '' });
    await expect404(move(deleted.id ?? ''));
  });

  it('404 for a calendar of another account, as source or as destination', async () => {
    const grace = await signIn(harness.origin, { email: 'grace.hopper@example.com', name: 'Grace Hopper' });
    const theirs = (
      await grace.api.events.insert({
        calendarId: 'primary',
        requestBody: { start: { date: '2030-05-10' }, end: { date: '2030-05-11' } },
      })
    ).data;
    const mine = await insert();

    const into = await failure(move(mine.id ?? '', 'grace.hopper@example.com'));
    expect(into.status).toBe(404);
    const outOf = await failure(move(theirs.id ?? '', workId, 'grace.hopper@example.com'));
    expect(outOf.status).toBe(404);
    expect(
      (await harness.api.events.get({ calendarId: 'primary', eventId: mine.id ?? '' })).data.status,
    ).toBe('confirmed');
  });

  it('400 cannotChangeOrganizerOfInstance for one instance of a recurring event', async () => {
    const series = await insert({
      start: { dateTime: '2030-05-06T09:00:00', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2030-05-06T10:00:00', timeZone: 'Europe/Berlin' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    const instances = (await harness.api.events.list({ calendarId: 'primary', singleEvents: true })).data
      .items;
    const instance = instances?.[1];
    expect(instance?.recurringEventId).toBe(series.id);
    const result = await failure(move(instance?.id ?? ''));
    expect(result.status).toBe(400);
    expect(result.body?.error.errors[0]).toEqual({
      domain: 'calendar',
      reason: 'cannotChangeOrganizerOfInstance',
      message: 'Cannot change the organizer of an instance.',
    });
    expect(
      (await harness.api.events.get({ calendarId: 'primary', eventId: series.id ?? '' })).data.status,
    ).toBe('confirmed');
  });

  it('409 when the destination holds another event with the same id', async () => {
    await insert({ id: 'sameid01' });
    await insert({ id: 'sameid01' }, workId);
    const result = await failure(move('sameid01'));
    expect(result.status).toBe(409);
    expect(result.body?.error.errors[0]?.reason).toBe('duplicate');
  });

  it('400 without a destination or with an unknown sendUpdates, 403 without a scope that allows moves', async () => {
    const event = await insert();
    const { tokens } = await signIn(harness.origin);
    const post = (query: string) =>
      fetch(`${harness.origin}/calendar/v3/calendars/primary/events/${event.id}/move${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
    const missing = await post('');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      error: { errors: [{ reason: 'required', location: 'destination' }] },
    });
    const badUpdates = await post(`?destination=${encodeURIComponent(workId)}&sendUpdates=everyone`);
    expect(badUpdates.status).toBe(400);

    const appCreated = await signIn(harness.origin, {
      scope: ['https://www.googleapis.com/auth/calendar.app.created'],
    });
    const refused = await failure(
      appCreated.api.events.move({ calendarId: 'primary', eventId: event.id ?? '', destination: workId }),
    );
    expect(refused.status).toBe(403);
    expect(refused.body?.error.errors[0]?.reason).toBe('insufficientPermissions');
  });
});

describe('the user moves an event to another calendar in Google Calendar (control)', () => {
  const userMove = (eventId: string, destination = workId, calendarId = 'ada.lovelace@example.com') =>
    control(harness.origin, `calendars/${encodeURIComponent(calendarId)}/events/${eventId}/move`, {
      destination,
    });

  it('keeps the id and the private extended properties; the source’s sync lists it cancelled', async () => {
    const primary = (await harness.api.calendars.get({ calendarId: 'primary' })).data.id ?? '';
    const event = await insert({ extendedProperties: { private: { timeboxerTaskId: '123' } } });
    const sourceToken = await syncTokenOf('primary');
    const destinationToken = await syncTokenOf(workId);

    const response = await userMove(event.id ?? '', workId, primary);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: event.id, calendarId: workId });

    const source = (await harness.api.events.list({ calendarId: 'primary', syncToken: sourceToken })).data;
    expect(source.items).toEqual([
      { kind: 'calendar#event', etag: expect.any(String), id: event.id, status: 'cancelled' },
    ]);
    const destination = (await harness.api.events.list({ calendarId: workId, syncToken: destinationToken }))
      .data.items;
    expect(destination).toMatchObject([
      { id: event.id, status: 'confirmed', extendedProperties: { private: { timeboxerTaskId: '123' } } },
    ]);

    // Moved back: the same id is live in the source again, listed as changed by its sync.
    expect((await userMove(event.id ?? '', primary, workId)).status).toBe(200);
    const again = (
      await harness.api.events.list({ calendarId: 'primary', syncToken: source.nextSyncToken ?? '' })
    ).data.items;
    expect(again).toMatchObject([{ id: event.id, status: 'confirmed' }]);
  });

  it('tells the watchers of both calendars', async () => {
    const primary = (await harness.api.calendars.get({ calendarId: 'primary' })).data.id ?? '';
    const event = await insert();
    for (const [calendarId, id] of [
      ['primary', 'source'],
      [workId, 'destination'],
    ] as const) {
      await harness.api.events.watch({
        calendarId,
        requestBody: { id, type: 'web_hook', address: pushes.address() },
      });
    }
    await control(harness.origin, 'notifications/flush');
    received = [];
    await userMove(event.id ?? '', workId, primary);
    await control(harness.origin, 'notifications/flush');
    expect(received.map((h) => h['x-goog-channel-id']).sort()).toEqual(['destination', 'source']);
  });

  it('404 for an unknown event or another account’s calendar, 400 for the same calendar', async () => {
    const primary = (await harness.api.calendars.get({ calendarId: 'primary' })).data.id ?? '';
    const event = await insert();
    await signIn(harness.origin, { email: 'grace.hopper@example.com', name: 'Grace Hopper' });
    expect((await userMove('unknown0event', workId, primary)).status).toBe(404);
    expect((await userMove(event.id ?? '', 'grace.hopper@example.com', primary)).status).toBe(404);
    expect((await userMove(event.id ?? '', primary, primary)).status).toBe(400);
    expect((await userMove(event.id ?? '', workId, primary)).status).toBe(200);
    expect((await userMove(event.id ?? '', workId, primary)).status).toBe(404);
  });
});
