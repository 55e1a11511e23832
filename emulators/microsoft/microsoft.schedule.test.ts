import type { Client, GraphError } from '@microsoft/microsoft-graph-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { graphClient, startMicrosoftEmulator, timeboxerCalendar, tokensFor } from './microsoft.testing.ts';

let origin: string;
let client: Client;
let timeboxerCalendarId: string;

setUpEmulator(startMicrosoftEmulator, (started) => {
  origin = started.origin;
});
beforeEach(async () => {
  ({ client, calendarId: timeboxerCalendarId } = await timeboxerCalendar(origin));
});

const ADA = 'ada.lovelace@example.com';
const utc = (time: string, day = '06') => ({ dateTime: `2030-05-${day}T${time}:00`, timeZone: 'UTC' });
const wire = (time: string, day = '06', timeZone = 'UTC') => ({
  dateTime: `2030-05-${day}T${time}:00.0000000`,
  timeZone,
});
const NINE_TO_ONE = { startTime: utc('09:00'), endTime: utc('13:00') };

const addEvent = (fields: Record<string, unknown>, path = '/me/calendar/events', as = client) =>
  as.api(path).post({ subject: 'Busy', ...fields });
const timed = (from: string, to: string, fields: Record<string, unknown> = {}, day = '06') =>
  addEvent({ start: utc(from, day), end: utc(to, day), ...fields });
const getSchedule = (body: Record<string, unknown>, as = client, prefer?: string) => {
  const request = as.api('/me/calendar/getSchedule');
  if (prefer) request.header('Prefer', prefer);
  return request.post({ schedules: [ADA], ...NINE_TO_ONE, ...body });
};
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: GraphError) => error,
  );

describe('POST /me/calendar/getSchedule', () => {
  it("answers the caller's own schedule: view, items with details, working hours", async () => {
    await timed('09:30', '10:30', { location: { displayName: 'Room 1' } });
    await timed('11:00', '11:30', { showAs: 'tentative', subject: 'Maybe' });
    await timed('12:00', '12:30', { showAs: 'free', subject: 'Lunch', sensitivity: 'private' });
    const response = await getSchedule({});
    expect(response).toEqual({
      '@odata.context': `${origin}/v1.0/$metadata#Collection(microsoft.graph.scheduleInformation)`,
      value: [
        {
          scheduleId: ADA,
          availabilityView: '02201000',
          scheduleItems: [
            {
              isPrivate: false,
              status: 'busy',
              subject: 'Busy',
              location: 'Room 1',
              start: wire('09:30'),
              end: wire('10:30'),
            },
            {
              isPrivate: false,
              status: 'tentative',
              subject: 'Maybe',
              location: '',
              start: wire('11:00'),
              end: wire('11:30'),
            },
            {
              isPrivate: true,
              status: 'free',
              subject: 'Lunch',
              location: '',
              start: wire('12:00'),
              end: wire('12:30'),
            },
          ],
          workingHours: {
            daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
            startTime: '08:00:00.0000000',
            endTime: '17:00:00.0000000',
            timeZone: { name: 'UTC' },
          },
        },
      ],
    });
  });

  it('gives every showAs its status and digit; the strongest wins a slot', async () => {
    await timed('09:00', '09:30', { showAs: 'oof' });
    await timed('09:30', '10:00', { showAs: 'workingElsewhere' });
    await timed('10:00', '11:00', { showAs: 'tentative' });
    await timed('10:30', '11:00', { showAs: 'busy' });
    const [schedule] = (await getSchedule({})).value;
    expect(schedule.availabilityView).toBe('34120000');
    expect(schedule.scheduleItems.map((item: { status: string }) => item.status)).toEqual([
      'oof',
      'workingElsewhere',
      'tentative',
      'busy',
    ]);
  });

  it('reads the default calendar only, not the other calendars of the mailbox', async () => {
    await timed('09:00', '10:00');
    await addEvent({ start: utc('11:00'), end: utc('12:00') }, `/me/calendars/${timeboxerCalendarId}/events`);
    const [schedule] = (await getSchedule({})).value;
    expect(schedule.availabilityView).toBe('22000000');
    expect(schedule.scheduleItems).toHaveLength(1);
  });

  it('lists events overlapping the period whole, not clipped, and leaves out the others', async () => {
    await timed('08:00', '09:30');
    await timed('12:30', '14:00');
    await timed('07:00', '09:00');
    await timed('13:00', '13:30');
    const [schedule] = (await getSchedule({ availabilityViewInterval: 60 })).value;
    expect(schedule.availabilityView).toBe('2002');
    expect(
      schedule.scheduleItems.map((item: { start: unknown; end: unknown }) => [item.start, item.end]),
    ).toEqual([
      [wire('08:00'), wire('09:30')],
      [wire('12:30'), wire('14:00')],
    ]);
  });

  it('expands recurring series, without deleted occurrences or deleted events', async () => {
    const series = await addEvent({
      subject: 'Stand-up',
      start: utc('09:00', '04'),
      end: utc('09:15', '04'),
      recurrence: {
        pattern: { type: 'daily', interval: 1 },
        range: { type: 'noEnd', startDate: '2030-05-04' },
      },
    });
    const occurrences = await client
      .api(`/me/events/${series.id}/instances`)
      .query({ startDateTime: '2030-05-05T00:00:00Z', endDateTime: '2030-05-06T00:00:00Z' })
      .get();
    await client.api(`/me/events/${occurrences.value[0].id}`).delete();
    const gone = await timed('11:00', '12:00');
    await client.api(`/me/events/${gone.id}`).delete();

    const response = await getSchedule({
      startTime: utc('00:00', '04'),
      endTime: utc('00:00', '07'),
      availabilityViewInterval: 1440,
    });
    const [schedule] = response.value;
    expect(schedule.availabilityView).toBe('202');
    expect(schedule.scheduleItems.map((item: { start: unknown }) => item.start)).toEqual([
      wire('09:00', '04'),
      wire('09:00', '06'),
    ]);
  });

  it('answers in the Prefer: outlook.timezone zone, reading the period in its own zone', async () => {
    await timed('16:00', '17:00');
    const response = await getSchedule(
      {
        startTime: { dateTime: '2030-05-06T09:00:00', timeZone: 'Pacific Standard Time' },
        endTime: { dateTime: '2030-05-06T11:00:00', timeZone: 'Pacific Standard Time' },
        availabilityViewInterval: 60,
      },
      client,
      'outlook.timezone="Pacific Standard Time"',
    );
    const [schedule] = response.value;
    // 16:00 UTC is 09:00 in Redmond (PDT, UTC-7): the first of the two hours.
    expect(schedule.availabilityView).toBe('20');
    expect(schedule.scheduleItems[0]).toMatchObject({
      start: wire('09:00', '06', 'Pacific Standard Time'),
      end: wire('10:00', '06', 'Pacific Standard Time'),
    });
  });

  it('takes the path and parameters in any case and the interval as a string, as Graph’s guide does', async () => {
    await timed('09:00', '09:15');
    const response = await client.api('/me/calendar/getschedule').post({
      Schedules: [ADA],
      StartTime: utc('09:00'),
      EndTime: utc('10:00'),
      availabilityViewInterval: '15',
    });
    expect(response.value[0].availabilityView).toBe('2000');
  });

  it('answers an unknown address with an error entry, and others only times and status', async () => {
    const bob = graphClient(origin, (await tokensFor(origin, 'bob@example.com')).access_token);
    await addEvent({ start: utc('09:00'), end: utc('10:00'), subject: 'Secret' }, '/me/calendar/events', bob);
    const response = await getSchedule({ schedules: ['nobody@example.com', 'Bob@Example.com'] });
    expect(response.value).toEqual([
      {
        scheduleId: 'nobody@example.com',
        error: {
          message: 'Unable to resolve e-mail address nobody@example.com to an Active Directory object.',
          responseCode: '5009',
        },
      },
      {
        scheduleId: 'Bob@Example.com',
        availabilityView: '22000000',
        scheduleItems: [{ status: 'busy', start: wire('09:00'), end: wire('10:00') }],
        workingHours: expect.objectContaining({ timeZone: { name: 'UTC' } }),
      },
    ]);
  });
});

describe('getSchedule errors', () => {
  it('needs a calendar permission (403 ErrorAccessDenied); Calendars.Read is enough', async () => {
    const reader = graphClient(
      origin,
      (await tokensFor(origin, ADA, 'offline_access Calendars.Read')).access_token,
    );
    expect((await getSchedule({}, reader)).value[0].availabilityView).toBe('00000000');
    const noCalendars = graphClient(
      origin,
      (await tokensFor(origin, ADA, 'offline_access User.Read')).access_token,
    );
    const error = (await caught(getSchedule({}, noCalendars))) as GraphError;
    expect(error.statusCode).toBe(403);
    expect(error.code).toBe('ErrorAccessDenied');
  });

  it('refuses a missing period, unknown parameters and unknown time zones (400)', async () => {
    const missing = (await caught(
      client.api('/me/calendar/getSchedule').post({ schedules: [ADA], startTime: utc('09:00') }),
    )) as GraphError;
    expect([missing.statusCode, missing.code]).toEqual([400, 'RequestBodyRead']);
    const unknown = (await caught(getSchedule({ maxResults: 5 }))) as GraphError;
    expect([unknown.statusCode, unknown.code]).toEqual([400, 'RequestBodyRead']);
    const zone = (await caught(
      getSchedule({ startTime: { dateTime: '2030-05-06T09:00:00', timeZone: 'Mars Standard Time' } }),
    )) as GraphError;
    expect([zone.statusCode, zone.code]).toEqual([400, 'TimeZoneNotSupportedException']);
  });

  it('refuses intervals outside 5 to 1440 minutes, reversed periods and periods of 62 days (400)', async () => {
    for (const body of [
      { availabilityViewInterval: 4 },
      { availabilityViewInterval: 1441 },
      { startTime: utc('13:00'), endTime: utc('09:00') },
      { startTime: utc('00:00', '01'), endTime: { dateTime: '2030-07-02T00:00:00', timeZone: 'UTC' } },
    ]) {
      const error = (await caught(getSchedule(body))) as GraphError;
      expect(error.statusCode).toBe(400);
    }
  });
});
