import type { calendar_v3 } from '@googleapis/calendar';
import { describe, expect, it } from 'vitest';
import { failure, setUpSignedInCalendar, signIn } from './google-calendar.test-support.ts';

const harness = setUpSignedInCalendar();

const SCOPE = 'https://www.googleapis.com/auth/';
const DAY = { timeMin: '2030-05-10T00:00:00Z', timeMax: '2030-05-11T00:00:00Z' };

const insert = (requestBody: calendar_v3.Schema$Event, calendarId = 'primary') =>
  harness.api.events.insert({ calendarId, requestBody }).then((r) => r.data);
const timed = (from: string, to: string, extra: calendar_v3.Schema$Event = {}) =>
  insert({
    summary: 'Busy',
    start: { dateTime: `2030-05-10T${from}:00Z` },
    end: { dateTime: `2030-05-10T${to}:00Z` },
    ...extra,
  });
const query = (requestBody: calendar_v3.Schema$FreeBusyRequest, client = harness.api) =>
  client.freebusy.query({ requestBody }).then((r) => r.data);
const busyOf = async (window = DAY, id = 'primary') =>
  (await query({ ...window, items: [{ id }] })).calendars?.[id]?.busy;

describe('freebusy.query', () => {
  it('answers the window and, per calendar asked for, its busy spans in UTC', async () => {
    await timed('09:00', '10:00');
    const response = await query({ ...DAY, items: [{ id: 'primary' }] });
    expect(response).toEqual({
      kind: 'calendar#freeBusy',
      timeMin: '2030-05-10T00:00:00.000Z',
      timeMax: '2030-05-11T00:00:00.000Z',
      calendars: { primary: { busy: [{ start: '2030-05-10T09:00:00Z', end: '2030-05-10T10:00:00Z' }] } },
    });
  });

  it('counts opaque events (the default) only, not transparent, deleted or cancelled ones', async () => {
    await timed('08:00', '08:30', { transparency: 'opaque' });
    await timed('09:00', '10:00');
    await timed('11:00', '12:00', { transparency: 'transparent' });
    const deleted = await timed('13:00', '14:00');
    await harness.api.events.delete({ calendarId: 'primary', eventId: deleted.id ?? '' });
    await timed('15:00', '16:00', { status: 'cancelled' });
    const freed = await timed('17:00', '18:00');
    await harness.api.events.patch({
      calendarId: 'primary',
      eventId: freed.id ?? '',
      requestBody: { transparency: 'transparent' },
    });
    expect(await busyOf()).toEqual([
      { start: '2030-05-10T08:00:00Z', end: '2030-05-10T08:30:00Z' },
      { start: '2030-05-10T09:00:00Z', end: '2030-05-10T10:00:00Z' },
    ]);
  });

  it('merges overlapping and back-to-back events into one span, in order', async () => {
    await timed('14:00', '15:00');
    await timed('10:30', '11:30');
    await timed('10:00', '11:00');
    await timed('11:30', '12:00');
    expect(await busyOf()).toEqual([
      { start: '2030-05-10T10:00:00Z', end: '2030-05-10T12:00:00Z' },
      { start: '2030-05-10T14:00:00Z', end: '2030-05-10T15:00:00Z' },
    ]);
  });

  it('clips spans to the window and leaves out events outside it', async () => {
    await timed('07:00', '09:30');
    await timed('11:30', '13:00');
    await timed('06:00', '07:00');
    await timed('12:00', '12:30');
    expect(await busyOf({ timeMin: '2030-05-10T09:00:00Z', timeMax: '2030-05-10T12:00:00Z' })).toEqual([
      { start: '2030-05-10T09:00:00Z', end: '2030-05-10T09:30:00Z' },
      { start: '2030-05-10T11:30:00Z', end: '2030-05-10T12:00:00Z' },
    ]);
  });

  it('includes the instances of recurring events in the window, without excluded dates', async () => {
    await insert({
      summary: 'Stand-up',
      start: { dateTime: '2030-05-06T09:00:00', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2030-05-06T09:15:00', timeZone: 'Europe/Berlin' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=10', 'EXDATE;TZID=Europe/Berlin:20300509T090000'],
    });
    expect(
      await busyOf({ timeMin: '2030-05-08T00:00:00+02:00', timeMax: '2030-05-11T00:00:00+02:00' }),
    ).toEqual([
      { start: '2030-05-08T07:00:00Z', end: '2030-05-08T07:15:00Z' },
      { start: '2030-05-10T07:00:00Z', end: '2030-05-10T07:15:00Z' },
    ]);
  });

  it('blocks all-day events unless they are transparent ("Show me as: Available")', async () => {
    await insert({ summary: 'Offsite', start: { date: '2030-05-10' }, end: { date: '2030-05-11' } });
    await insert({
      summary: 'Holiday',
      start: { date: '2030-05-11' },
      end: { date: '2030-05-12' },
      transparency: 'transparent',
    });
    // The calendar's zone (Europe/Berlin) places the day.
    expect(await busyOf({ timeMin: '2030-05-09T00:00:00Z', timeMax: '2030-05-13T00:00:00Z' })).toEqual([
      { start: '2030-05-09T22:00:00Z', end: '2030-05-10T22:00:00Z' },
    ]);
  });

  it('writes the spans in the requested time zone with its offset', async () => {
    await timed('09:00', '10:00');
    const response = await query({ ...DAY, timeZone: 'America/New_York', items: [{ id: 'primary' }] });
    expect(response.timeMin).toBe('2030-05-10T00:00:00.000Z');
    expect(response.calendars?.primary?.busy).toEqual([
      { start: '2030-05-10T05:00:00-04:00', end: '2030-05-10T06:00:00-04:00' },
    ]);
  });

  it('answers each calendar under the id it was asked by; secondary calendars are separate', async () => {
    const ids = ((await harness.api.calendarList.list()).data.items ?? []).map((entry) => entry.id ?? '');
    const [email = '', work = ''] = ids;
    await timed('09:00', '10:00');
    await timed('13:00', '14:00');
    await insert(
      { start: { dateTime: '2030-05-10T15:00:00Z' }, end: { dateTime: '2030-05-10T16:00:00Z' } },
      work,
    );
    const response = await query({ ...DAY, items: [{ id: email }, { id: work }] });
    expect(response.calendars).toEqual({
      [email]: {
        busy: [
          { start: '2030-05-10T09:00:00Z', end: '2030-05-10T10:00:00Z' },
          { start: '2030-05-10T13:00:00Z', end: '2030-05-10T14:00:00Z' },
        ],
      },
      [work]: { busy: [{ start: '2030-05-10T15:00:00Z', end: '2030-05-10T16:00:00Z' }] },
    });
  });

  it('gives an unknown or inaccessible calendar notFound and no spans, and the others their answer', async () => {
    const bob = await signIn(harness.origin, { email: 'bob@example.com', name: 'Bob' });
    await timed('09:00', '10:00');
    const response = await query(
      {
        ...DAY,
        items: [{ id: 'nobody@example.com' }, { id: 'ada.lovelace@example.com' }, { id: 'primary' }],
      },
      bob.api,
    );
    const notFound = { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
    expect(response.calendars).toEqual({
      'nobody@example.com': notFound,
      'ada.lovelace@example.com': notFound,
      primary: { busy: [] },
    });
  });

  it('answers no calendars when none are asked for', async () => {
    expect((await query(DAY)).calendars).toEqual({});
  });
});

describe('freebusy.query errors', () => {
  it('requires timeMin and timeMax (400 required)', async () => {
    for (const requestBody of [{ timeMax: DAY.timeMax }, { timeMin: DAY.timeMin }]) {
      const { status, body } = await failure(query({ ...requestBody, items: [{ id: 'primary' }] }));
      expect(status).toBe(400);
      expect(body?.error.errors[0]).toMatchObject({ domain: 'global', reason: 'required' });
    }
  });

  it('refuses an empty or reversed window (400 timeRangeEmpty)', async () => {
    for (const timeMax of [DAY.timeMin, '2030-05-09T00:00:00Z']) {
      const { status, body } = await failure(query({ timeMin: DAY.timeMin, timeMax, items: [] }));
      expect(status).toBe(400);
      expect(body?.error.errors[0]).toMatchObject({
        reason: 'timeRangeEmpty',
        message: 'The specified time range is empty.',
      });
    }
  });

  it('refuses times without an offset and unknown time zones (400)', async () => {
    const noOffset = await failure(query({ timeMin: '2030-05-10T00:00:00', timeMax: DAY.timeMax }));
    expect(noOffset.status).toBe(400);
    const zone = await failure(query({ ...DAY, timeZone: 'Mars/Olympus_Mons' }));
    expect(zone.status).toBe(400);
    expect(zone.body?.error.errors[0]?.reason).toBe('invalid');
  });

  it('needs a calendar read scope: calendar.readonly will do, the events scopes will not (403)', async () => {
    const reader = await signIn(harness.origin, { scope: [`${SCOPE}calendar.readonly`] });
    expect((await query({ ...DAY, items: [{ id: 'primary' }] }, reader.api)).calendars).toEqual({
      primary: { busy: [] },
    });
    const eventsOnly = await signIn(harness.origin, { scope: [`${SCOPE}calendar.events`] });
    const { status, body } = await failure(query({ ...DAY, items: [{ id: 'primary' }] }, eventsOnly.api));
    expect(status).toBe(403);
    expect(body?.error.errors[0]?.reason).toBe('insufficientPermissions');
  });
});
