import type { calendar_v3 } from '@googleapis/calendar';
import { describe, expect, it } from 'vitest';
import { failure, setUpSignedInCalendar } from './google-calendar.test-support.ts';

const harness = setUpSignedInCalendar();

const timed = (start: string, end: string, extra: calendar_v3.Schema$Event = {}) => ({
  summary: 'Write report',
  start: { dateTime: start, timeZone: 'Europe/Berlin' },
  end: { dateTime: end, timeZone: 'Europe/Berlin' },
  ...extra,
});

describe('calendarList and colors', () => {
  it('lists the calendars, one page at a time, with the sync token on the last page only', async () => {
    const first = await harness.api.calendarList.list({ maxResults: 2 });
    expect(first.data.kind).toBe('calendar#calendarList');
    expect(first.data.items?.map((c) => c.summary)).toEqual(['ada.lovelace@example.com', 'Work']);
    expect(first.data.items?.[0]).toMatchObject({
      kind: 'calendar#calendarListEntry',
      id: 'ada.lovelace@example.com',
      primary: true,
      accessRole: 'owner',
      timeZone: 'Europe/Berlin',
      backgroundColor: expect.stringMatching(/^#[0-9a-f]{6}$/),
      defaultReminders: [{ method: 'popup', minutes: 10 }],
    });
    expect(first.data.nextPageToken).toBeTruthy();
    expect(first.data.nextSyncToken).toBeUndefined();
    const second = await harness.api.calendarList.list({
      maxResults: 2,
      pageToken: first.data.nextPageToken ?? '',
    });
    expect(second.data.items?.map((c) => c.summary)).toEqual(['Timeboxer']);
    expect(second.data.items?.[0]?.id).toMatch(/^c_[0-9a-f]{64}@group\.calendar\.google\.com$/);
    expect(second.data.nextPageToken).toBeUndefined();
    expect(second.data.nextSyncToken).toBeTruthy();
    expect((await harness.api.calendarList.get({ calendarId: 'primary' })).data.primary).toBe(true);
  });

  it('gives Google’s fixed palettes: 11 event colours and 24 calendar colours', async () => {
    const { data } = await harness.api.colors.get();
    expect(data.kind).toBe('calendar#colors');
    expect(Object.keys(data.event ?? {})).toHaveLength(11);
    expect(Object.keys(data.calendar ?? {})).toHaveLength(24);
    expect(data.event?.['1']).toEqual({ background: '#a4bdfc', foreground: '#1d1d1d' });
    expect(data.event?.['11']).toEqual({ background: '#dc2127', foreground: '#1d1d1d' });
    expect(data.calendar?.['24']).toEqual({ background: '#a47ae2', foreground: '#1d1d1d' });
  });
});

describe('events', () => {
  it('inserts with a client-chosen id, once: a second insert is 409 duplicate', async () => {
    const body = timed('2030-03-04T09:00:00', '2030-03-04T09:30:00', {
      id: 'tb0task0123',
      colorId: '5',
      visibility: 'private',
      description: 'https://app.todoist.com/app/task/123',
      reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 5 }] },
      extendedProperties: { private: { timeboxerTaskId: '123' } },
    });
    const { data } = await harness.api.events.insert({ calendarId: 'primary', requestBody: body });
    expect(data).toMatchObject({
      kind: 'calendar#event',
      id: 'tb0task0123',
      status: 'confirmed',
      summary: 'Write report',
      colorId: '5',
      visibility: 'private',
      start: { dateTime: '2030-03-04T09:00:00+01:00', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2030-03-04T09:30:00+01:00', timeZone: 'Europe/Berlin' },
      reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 5 }] },
      extendedProperties: { private: { timeboxerTaskId: '123' } },
      iCalUID: 'tb0task0123@google.com',
      htmlLink: expect.stringContaining('/calendar/event?eid='),
    });
    expect(data.etag).toMatch(/^"\d+"$/);
    expect(data.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const again = await failure(harness.api.events.insert({ calendarId: 'primary', requestBody: body }));
    expect(again.status).toBe(409);
    expect(again.body?.error.errors[0]?.reason).toBe('duplicate');
    const page = await fetch(data.htmlLink ?? '');
    expect(await page.text()).toContain('Write report');
  });

  it('generates base32hex ids and refuses ids that are not', async () => {
    const { data } = await harness.api.events.insert({
      calendarId: 'primary',
      requestBody: { start: { date: '2030-01-01' }, end: { date: '2030-01-02' } },
    });
    expect(data.id).toMatch(/^[a-v0-9]{26}$/);
    expect(data.start).toEqual({ date: '2030-01-01' });
    const bad = await failure(
      harness.api.events.insert({
        calendarId: 'primary',
        requestBody: { ...timed('2030-01-01T10:00:00Z', '2030-01-01T11:00:00Z'), id: 'NOT_VALID!' },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body?.error.errors[0]?.reason).toBe('invalid');
  });

  it.each([
    [{ end: { dateTime: '2030-01-01T09:00:00Z' } }, 'timeRangeEmpty'],
    [{ start: { dateTime: '2030-01-01T10:00:00' }, end: { dateTime: '2030-01-01T11:00:00' } }, 'required'],
    [{ start: { dateTime: '2030-01-01T10:00:00Z', timeZone: 'Mars/Olympus' } }, 'invalid'],
    [{ colorId: '12' }, 'invalid'],
    [{ visibility: 'secret' }, 'invalid'],
    [
      { reminders: { useDefault: true, overrides: [{ method: 'popup', minutes: 1 }] } },
      'cannotUseDefaultRemindersAndSpecifyOverride',
    ],
  ])('refuses a bad event %o with 400 %s', async (override, reason) => {
    const requestBody = {
      start: { dateTime: '2030-01-01T10:00:00Z' },
      end: { dateTime: '2030-01-01T11:00:00Z' },
      ...override,
    };
    const result = await failure(harness.api.events.insert({ calendarId: 'primary', requestBody }));
    expect(result.status).toBe(400);
    expect(result.body?.error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      errors: [{ domain: 'global', reason }],
    });
  });

  it('gets, patches and updates, with a new etag on every write', async () => {
    const created = (
      await harness.api.events.insert({
        calendarId: 'primary',
        requestBody: timed('2030-03-04T09:00:00', '2030-03-04T10:00:00', {
          description: 'notes',
          extendedProperties: { private: { a: '1', b: '2' } },
        }),
      })
    ).data;
    const id = created.id ?? '';
    expect((await harness.api.events.get({ calendarId: 'primary', eventId: id })).data).toEqual(created);

    const patched = (
      await harness.api.events.patch({
        calendarId: 'primary',
        eventId: id,
        requestBody: {
          summary: 'Renamed',
          start: { dateTime: '2030-03-04T09:30:00+01:00' },
          extendedProperties: { private: { a: null as unknown as string } },
        },
      })
    ).data;
    expect(patched).toMatchObject({
      summary: 'Renamed',
      description: 'notes',
      start: { dateTime: '2030-03-04T09:30:00+01:00', timeZone: 'Europe/Berlin' },
      extendedProperties: { private: { b: '2' } },
      sequence: 1,
    });
    expect(patched.etag).not.toBe(created.etag);
    expect(patched.created).toBe(created.created);

    const updated = (
      await harness.api.events.update({
        calendarId: 'primary',
        eventId: id,
        requestBody: timed('2030-03-05T09:00:00', '2030-03-05T09:15:00'),
      })
    ).data;
    expect(updated.description).toBeUndefined();
    expect(updated.extendedProperties).toBeUndefined();
    expect(updated.etag).not.toBe(patched.etag);
  });

  it('checks If-Match: a stale etag is 412 conditionNotMet, the current one passes', async () => {
    const created = (
      await harness.api.events.insert({
        calendarId: 'primary',
        requestBody: timed('2030-03-04T09:00:00', '2030-03-04T10:00:00'),
      })
    ).data;
    const id = created.id ?? '';
    const current = (
      await harness.api.events.patch({ calendarId: 'primary', eventId: id, requestBody: { summary: 'v2' } })
    ).data;
    const stale = await failure(
      harness.api.events.patch(
        { calendarId: 'primary', eventId: id, requestBody: { summary: 'v3' } },
        { headers: { 'If-Match': created.etag ?? '' } },
      ),
    );
    expect(stale.status).toBe(412);
    expect(stale.body?.error.errors[0]?.reason).toBe('conditionNotMet');
    const staleDelete = await failure(
      harness.api.events.delete(
        { calendarId: 'primary', eventId: id },
        { headers: { 'If-Match': created.etag ?? '' } },
      ),
    );
    expect(staleDelete.status).toBe(412);
    const ok = await harness.api.events.patch(
      { calendarId: 'primary', eventId: id, requestBody: { summary: 'v3' } },
      { headers: { 'If-Match': current.etag ?? '' } },
    );
    expect(ok.data.summary).toBe('v3');
  });

  it('deletes with 204, keeps a cancelled event for get, and answers 410 deleted to a second delete', async () => {
    const { data } = await harness.api.events.insert({
      calendarId: 'primary',
      requestBody: timed('2030-03-04T09:00:00', '2030-03-04T10:00:00'),
    });
    const deleted = await harness.api.events.delete({ calendarId: 'primary', eventId: data.id ?? '' });
    expect(deleted.status).toBe(204);
    expect(
      (await harness.api.events.get({ calendarId: 'primary', eventId: data.id ?? '' })).data.status,
    ).toBe('cancelled');
    const again = await failure(harness.api.events.delete({ calendarId: 'primary', eventId: data.id ?? '' }));
    expect(again.status).toBe(410);
    expect(again.body?.error.errors[0]?.reason).toBe('deleted');
    expect((await harness.api.events.list({ calendarId: 'primary' })).data.items).toEqual([]);
  });

  it('filters by time window and by private extended property', async () => {
    const insert = (requestBody: calendar_v3.Schema$Event) =>
      harness.api.events.insert({ calendarId: 'primary', requestBody });
    await insert(
      timed('2030-03-04T09:00:00', '2030-03-04T10:00:00', {
        summary: 'mine',
        extendedProperties: { private: { timeboxer: 'task-1' } },
      }),
    );
    await insert(timed('2030-03-04T11:00:00', '2030-03-04T12:00:00', { summary: 'other' }));
    await insert(timed('2030-03-06T09:00:00', '2030-03-06T10:00:00', { summary: 'later' }));
    const list = (params: calendar_v3.Params$Resource$Events$List) =>
      harness.api.events
        .list({ calendarId: 'primary', ...params })
        .then((r) => r.data.items?.map((e) => e.summary));
    expect(await list({ timeMin: '2030-03-04T10:00:00+01:00', timeMax: '2030-03-05T00:00:00Z' })).toEqual([
      'other',
    ]);
    expect(await list({ timeMin: '2030-03-04T09:59:00+01:00', timeMax: '2030-03-05T00:00:00Z' })).toEqual([
      'mine',
      'other',
    ]);
    expect(await list({ privateExtendedProperty: ['timeboxer=task-1'] })).toEqual(['mine']);
    expect(await list({ privateExtendedProperty: ['timeboxer=task-2'] })).toEqual([]);
    const empty = await failure(
      harness.api.events.list({
        calendarId: 'primary',
        timeMin: '2030-03-05T00:00:00Z',
        timeMax: '2030-03-04T00:00:00Z',
      }),
    );
    expect(empty.body?.error.errors[0]?.reason).toBe('timeRangeEmpty');
  });

  it('shows recurring events as a series, or as instances with singleEvents', async () => {
    const { data: series } = await harness.api.events.insert({
      calendarId: 'primary',
      requestBody: timed('2030-03-25T09:00:00', '2030-03-25T09:30:00', {
        summary: 'Stand-up',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=10'],
      }),
    });
    const window = { timeMin: '2030-03-30T00:00:00Z', timeMax: '2030-04-01T00:00:00Z' };
    const masters = (await harness.api.events.list({ calendarId: 'primary', ...window })).data.items ?? [];
    expect(masters).toHaveLength(1);
    expect(masters[0]?.recurrence).toEqual(['RRULE:FREQ=DAILY;COUNT=10']);

    const instances =
      (
        await harness.api.events.list({
          calendarId: 'primary',
          singleEvents: true,
          orderBy: 'startTime',
          ...window,
        })
      ).data.items ?? [];
    // 09:00 in Berlin: UTC+1 before the switch to summer time on 2030-03-31, UTC+2 after.
    expect(instances.map((e) => e.id)).toEqual([
      `${series.id}_20300330T080000Z`,
      `${series.id}_20300331T070000Z`,
    ]);
    expect(instances[1]).toMatchObject({
      recurringEventId: series.id,
      start: { dateTime: '2030-03-31T09:00:00+02:00', timeZone: 'Europe/Berlin' },
      originalStartTime: { dateTime: '2030-03-31T09:00:00+02:00', timeZone: 'Europe/Berlin' },
    });
    expect(instances[1]?.recurrence).toBeUndefined();
    const one = await harness.api.events.get({ calendarId: 'primary', eventId: instances[0]?.id ?? '' });
    expect(one.data.recurringEventId).toBe(series.id);
    const missing = await failure(
      harness.api.events.insert({
        calendarId: 'primary',
        requestBody: {
          ...timed('2030-03-25T09:00:00Z', '2030-03-25T09:30:00Z'),
          start: { dateTime: '2030-03-25T09:00:00Z' },
          recurrence: ['RRULE:FREQ=DAILY'],
        },
      }),
    );
    expect(missing.status).toBe(400);
  });

  it('expands weekly series with BYDAY, UNTIL and EXDATE, and all-day series by date', async () => {
    const { data: weekly } = await harness.api.events.insert({
      calendarId: 'primary',
      requestBody: timed('2030-06-03T18:00:00', '2030-06-03T19:00:00', {
        recurrence: [
          'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20300619T235959Z',
          'EXDATE;TZID=Europe/Berlin:20300610T180000',
        ],
      }),
    });
    const { data: yearly } = await harness.api.events.insert({
      calendarId: 'primary',
      requestBody: {
        summary: 'Birthday',
        start: { date: '2030-06-05' },
        end: { date: '2030-06-06' },
        recurrence: ['RRULE:FREQ=YEARLY'],
      },
    });
    const items =
      (
        await harness.api.events.list({
          calendarId: 'primary',
          singleEvents: true,
          orderBy: 'startTime',
          timeMin: '2030-06-01T00:00:00Z',
          timeMax: '2030-07-01T00:00:00Z',
        })
      ).data.items ?? [];
    expect(items.map((e) => e.id)).toEqual([
      `${weekly.id}_20300603T160000Z`,
      `${yearly.id}_20300605`,
      `${weekly.id}_20300605T160000Z`,
      `${weekly.id}_20300612T160000Z`,
      `${weekly.id}_20300617T160000Z`,
      `${weekly.id}_20300619T160000Z`,
    ]);
    expect(items[1]).toMatchObject({
      start: { date: '2030-06-05' },
      end: { date: '2030-06-06' },
      originalStartTime: { date: '2030-06-05' },
    });
  });
});
