import {
  type Client,
  type GraphError,
  PageIterator,
  RetryHandlerOptions,
} from '@microsoft/microsoft-graph-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import {
  control,
  graphClient,
  startMicrosoftEmulator,
  timeboxerCalendar,
  tokensFor,
} from './microsoft.testing.ts';

let origin: string;
let client: Client;
let timeboxerCalendarId: string;

type Event = Record<string, unknown> & {
  id: string;
  changeKey: string;
  start: { dateTime: string; timeZone: string };
};

setUpEmulator(startMicrosoftEmulator, (started) => {
  origin = started.origin;
});
beforeEach(async () => {
  ({ client, calendarId: timeboxerCalendarId } = await timeboxerCalendar(origin));
});

const noRetry = () => [new RetryHandlerOptions(0, 0)];
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: GraphError) => error,
  );

const newEvent = (overrides: Record<string, unknown> = {}) => ({
  subject: 'Write report',
  body: { contentType: 'text', content: 'https://app.todoist.com/app/task/123' },
  start: { dateTime: '2030-05-06T09:00:00', timeZone: 'UTC' },
  end: { dateTime: '2030-05-06T09:30:00', timeZone: 'UTC' },
  categories: ['Blue category'],
  sensitivity: 'private',
  isReminderOn: true,
  reminderMinutesBeforeStart: 10,
  ...overrides,
});

describe('user, mailbox settings and calendars', () => {
  it('GET /me gives id, displayName, mail and userPrincipalName', async () => {
    const me = await client.api('/me').get();
    expect(me).toMatchObject({
      '@odata.context': `${origin}/v1.0/$metadata#users/$entity`,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      displayName: 'Ada Lovelace',
      givenName: 'Ada',
      surname: 'Lovelace',
      mail: 'ada.lovelace@example.com',
      userPrincipalName: 'ada.lovelace@example.com',
    });
    expect(await client.api('/me').select('displayName').get()).toEqual({
      '@odata.context': expect.any(String),
      id: me.id,
      displayName: 'Ada Lovelace',
    });
  });

  it('GET /me/mailboxSettings gives the time zone', async () => {
    const settings = await client.api('/me/mailboxSettings').get();
    expect(settings.timeZone).toBe('UTC');
    expect(settings.workingHours.timeZone.name).toBe('UTC');
    expect((await client.api('/me/mailboxSettings/timeZone').get()).value).toBe('UTC');
  });

  it('deletes a calendar with its events, but not the default one', async () => {
    const event = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).post({
      subject: 'Gone with it',
      start: { dateTime: '2030-05-10T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-05-10T10:00:00', timeZone: 'UTC' },
    });
    await client.api(`/me/calendars/${timeboxerCalendarId}`).delete();
    const names = (await client.api('/me/calendars').get()).value.map((c: { name: string }) => c.name);
    expect(names).toEqual(['Calendar']);
    expect((await caught(client.api(`/me/events/${event.id}`).get()))?.statusCode).toBe(404);
    const defaultId = (await client.api('/me/calendar').get()).id;
    const refused = await caught(client.api(`/me/calendars/${defaultId}`).delete());
    expect(refused).toMatchObject({ statusCode: 400, code: 'ErrorInvalidRequest' });
  });

  it('lists the seeded calendars and gets one', async () => {
    const calendars = await client.api('/me/calendars').get();
    expect(calendars.value.map((c: { name: string }) => c.name)).toEqual(['Calendar', 'Timeboxer']);
    expect(calendars.value[0]).toMatchObject({
      isDefaultCalendar: true,
      color: 'auto',
      hexColor: '',
      canEdit: true,
      changeKey: expect.any(String),
      owner: { name: 'Ada Lovelace', address: 'ada.lovelace@example.com' },
    });
    const one = await client.api(`/me/calendars/${timeboxerCalendarId}`).get();
    expect(one).toMatchObject({ id: timeboxerCalendarId, name: 'Timeboxer', isDefaultCalendar: false });
  });

  it('lists, creates and deletes master categories with preset colours', async () => {
    const list = await client.api('/me/outlook/masterCategories').get();
    expect(list.value).toHaveLength(6);
    expect(list.value[0]).toMatchObject({
      id: expect.any(String),
      displayName: 'Red category',
      color: 'preset0',
    });
    const created = await client
      .api('/me/outlook/masterCategories')
      .post({ displayName: 'Timebox', color: 'preset7' });
    expect(created).toMatchObject({ displayName: 'Timebox', color: 'preset7' });
    const duplicate = await caught(
      client.api('/me/outlook/masterCategories').post({ displayName: 'timebox', color: 'preset1' }),
    );
    expect(duplicate?.statusCode).toBe(409);
    const badColour = await caught(
      client.api('/me/outlook/masterCategories').post({ displayName: 'X', color: 'purple' }),
    );
    expect(badColour?.statusCode).toBe(400);
    const recoloured = await client
      .api(`/me/outlook/masterCategories/${created.id}`)
      .patch({ color: 'preset24' });
    expect(recoloured.color).toBe('preset24');
    const renamed = await caught(
      client.api(`/me/outlook/masterCategories/${created.id}`).patch({ displayName: 'Other' }),
    );
    expect(renamed?.statusCode).toBe(400);
    await client.api(`/me/outlook/masterCategories/${created.id}`).delete();
    const after = await client.api('/me/outlook/masterCategories').get();
    expect(after.value.map((c: { displayName: string }) => c.displayName)).not.toContain('Timebox');
  });

  it('needs MailboxSettings.ReadWrite to create a category', async () => {
    const readOnly = await tokensFor(
      origin,
      'ada.lovelace@example.com',
      'offline_access Calendars.ReadWrite MailboxSettings.Read',
    );
    const limited = graphClient(origin, readOnly.access_token);
    expect((await limited.api('/me/outlook/masterCategories').get()).value).toHaveLength(6);
    const error = await caught(
      limited.api('/me/outlook/masterCategories').post({ displayName: 'A', color: 'preset1' }),
    );
    expect(error).toMatchObject({ statusCode: 403, code: 'ErrorAccessDenied' });
    const me = await caught(limited.api('/me').get());
    expect(me).toMatchObject({ statusCode: 403, code: 'Authorization_RequestDenied' });
  });
});

describe('events', () => {
  it('creates, reads, updates and deletes an event in a chosen calendar', async () => {
    const created: Event = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).post(newEvent());
    expect(created).toMatchObject({
      '@odata.etag': `W/"${created.changeKey}"`,
      id: expect.stringMatching(/^AAMk/),
      subject: 'Write report',
      start: { dateTime: '2030-05-06T09:00:00.0000000', timeZone: 'UTC' },
      end: { dateTime: '2030-05-06T09:30:00.0000000', timeZone: 'UTC' },
      categories: ['Blue category'],
      sensitivity: 'private',
      isReminderOn: true,
      reminderMinutesBeforeStart: 10,
      isAllDay: false,
      type: 'singleInstance',
      transactionId: null,
      seriesMasterId: null,
      iCalUId: expect.stringMatching(/^040000008200E00074C5B7101A82E008/),
      webLink: expect.stringContaining('itemid='),
      createdDateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:]{8}\.\d{7}Z$/),
      lastModifiedDateTime: expect.any(String),
      bodyPreview: 'https://app.todoist.com/app/task/123',
    });
    expect(created.body).toMatchObject({ contentType: 'html' });
    expect(String((created.body as { content: string }).content)).toContain(
      '<div>https://app.todoist.com/app/task/123</div>',
    );

    const read: Event = await client
      .api(`/me/events/${created.id}`)
      .header('Prefer', 'outlook.body-content-type="text"')
      .get();
    expect(read.body).toEqual({ contentType: 'text', content: 'https://app.todoist.com/app/task/123' });

    const updated: Event = await client
      .api(`/me/events/${created.id}`)
      .patch({ subject: 'Write the report', end: { dateTime: '2030-05-06T10:00:00', timeZone: 'UTC' } });
    expect(updated.subject).toBe('Write the report');
    expect(updated.changeKey).not.toBe(created.changeKey);
    expect(updated.end).toEqual({ dateTime: '2030-05-06T10:00:00.0000000', timeZone: 'UTC' });
    expect(updated.start).toEqual(created.start);

    await client.api(`/me/events/${created.id}`).delete();
    const gone = await caught(client.api(`/me/events/${created.id}`).get());
    expect(gone).toMatchObject({ statusCode: 404, code: 'ErrorItemNotFound' });
    expect(JSON.parse(gone?.body ?? '{}')).toMatchObject({
      code: 'ErrorItemNotFound',
      innerError: {
        date: expect.any(String),
        'request-id': expect.any(String),
        'client-request-id': expect.any(String),
      },
    });
  });

  it('creates once for a repeated transactionId', async () => {
    const body = newEvent({ transactionId: '4e0b4a3c-8f6e-4b8e-9d3f-0d0a5f1c2b7e' });
    const first: Event = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).post(body);
    const second: Event = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).post(body);
    expect(second.id).toBe(first.id);
    expect(second.transactionId).toBe('4e0b4a3c-8f6e-4b8e-9d3f-0d0a5f1c2b7e');
    const list = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).get();
    expect(list.value).toHaveLength(1);
    const change = await caught(client.api(`/me/events/${first.id}`).patch({ transactionId: 'other' }));
    expect(change?.statusCode).toBe(400);
  });

  it('dedupes a transactionId per calendar and only within the window', async () => {
    const body = newEvent({ transactionId: '0d5c2b8e-1f7a-4c3e-9b6d-2a4e8f0c1d3b' });
    const first: Event = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).post(body);
    const elsewhere: Event = await client.api('/me/events').post(body);
    expect(elsewhere.id).not.toBe(first.id);

    await control(origin, 'settings', { transactionIdWindowSeconds: 0 });
    const later: Event = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).post(body);
    expect(later.id).not.toBe(first.id);
    const list = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).get();
    expect(list.value).toHaveLength(2);
  });

  it('converts times with the event time zone and Prefer: outlook.timezone', async () => {
    const created: Event = await client.api('/me/events').post(
      newEvent({
        start: { dateTime: '2030-07-01T09:00:00', timeZone: 'W. Europe Standard Time' },
        end: { dateTime: '2030-07-01T10:00:00', timeZone: 'Europe/Berlin' },
      }),
    );
    expect(created.start).toEqual({ dateTime: '2030-07-01T07:00:00.0000000', timeZone: 'UTC' });
    expect(created.originalStartTimeZone).toBe('W. Europe Standard Time');
    const pacific: Event = await client
      .api(`/me/events/${created.id}`)
      .header('Prefer', 'outlook.timezone="Pacific Standard Time"')
      .get();
    expect(pacific.start).toEqual({
      dateTime: '2030-07-01T00:00:00.0000000',
      timeZone: 'Pacific Standard Time',
    });
    const badZone = await caught(
      client
        .api('/me/events')
        .post(newEvent({ start: { dateTime: '2030-07-01T09:00:00', timeZone: 'Mars/Olympus' } })),
    );
    expect(badZone).toMatchObject({ statusCode: 400, code: 'TimeZoneNotSupportedException' });
  });

  it('validates bodies like Graph', async () => {
    const unknown = await caught(client.api('/me/events').post(newEvent({ colour: 'red' })));
    expect(unknown).toMatchObject({ statusCode: 400, code: 'RequestBodyRead' });
    const wrongType = await caught(
      client.api('/me/events').post(newEvent({ reminderMinutesBeforeStart: 'ten' })),
    );
    expect(wrongType).toMatchObject({ statusCode: 400, code: 'RequestBodyRead' });
    const backwards = await caught(
      client.api('/me/events').post(newEvent({ end: { dateTime: '2030-05-06T08:00:00', timeZone: 'UTC' } })),
    );
    expect(backwards?.statusCode).toBe(400);
    const allDay = await client.api('/me/events').post(
      newEvent({
        isAllDay: true,
        start: { dateTime: '2030-05-06T00:00:00', timeZone: 'UTC' },
        end: { dateTime: '2030-05-07T00:00:00', timeZone: 'UTC' },
      }),
    );
    expect(allDay.isAllDay).toBe(true);
    const notMidnight = await caught(client.api('/me/events').post(newEvent({ isAllDay: true })));
    expect(notMidnight?.statusCode).toBe(400);
  });

  it('tells a malformed id (400) from a missing one (404) and refuses a stale If-Match (412)', async () => {
    const malformed = await caught(client.api('/me/events/not-an-id').get());
    expect(malformed).toMatchObject({ statusCode: 400, code: 'ErrorInvalidIdMalformed' });
    const created: Event = await client.api('/me/events').post(newEvent());
    await client.api(`/me/events/${created.id}`).patch({ subject: 'Changed elsewhere' });
    const stale = await caught(
      client
        .api(`/me/events/${created.id}`)
        .header('If-Match', `W/"${created.changeKey}"`)
        .patch({ subject: 'Mine' }),
    );
    expect(stale).toMatchObject({ statusCode: 412, code: 'ErrorIrresolvableConflict' });
    const inOtherCalendar = await caught(
      client.api(`/me/calendars/${timeboxerCalendarId}/events/${created.id}`).get(),
    );
    expect(inOtherCalendar?.statusCode).toBe(404);
  });

  it('supports $select, $filter, $top with absolute nextLinks, and the page iterator', async () => {
    for (let i = 0; i < 5; i++) {
      await client.api(`/me/calendars/${timeboxerCalendarId}/events`).post(
        newEvent({
          subject: `Task ${i}`,
          categories: i % 2 ? ['Green category'] : ['Blue category'],
          start: { dateTime: `2030-05-0${i + 1}T09:00:00`, timeZone: 'UTC' },
          end: { dateTime: `2030-05-0${i + 1}T10:00:00`, timeZone: 'UTC' },
          singleValueExtendedProperties: [
            { id: 'String {66f5a359-4659-4830-9070-00047ec6ac6e} Name TaskId', value: `t${i}` },
          ],
        }),
      );
    }
    const selected = await client
      .api(`/me/calendars/${timeboxerCalendarId}/events`)
      .select(['subject'])
      .top(2)
      .get();
    expect(Object.keys(selected.value[0]).sort()).toEqual(['@odata.etag', 'id', 'subject']);
    expect(selected['@odata.nextLink']).toMatch(new RegExp(`^${origin}/v1.0/me/calendars/.+\\$skip=2`));
    const subjects: string[] = [];
    const iterator = new PageIterator(client, selected, (event: { subject: string }) => {
      subjects.push(event.subject);
      return true;
    });
    await iterator.iterate();
    expect(subjects).toEqual(['Task 0', 'Task 1', 'Task 2', 'Task 3', 'Task 4']);

    const green = await client
      .api(`/me/calendars/${timeboxerCalendarId}/events`)
      .filter("categories/any(c:c eq 'Green category') and start/dateTime ge '2030-05-03T00:00:00'")
      .get();
    expect(green.value.map((e: { subject: string }) => e.subject)).toEqual(['Task 3']);
    const tagged = await client
      .api(`/me/calendars/${timeboxerCalendarId}/events`)
      .filter(
        "singleValueExtendedProperties/Any(ep: ep/id eq 'String {66f5a359-4659-4830-9070-00047ec6ac6e} Name TaskId' and ep/value eq 't2')",
      )
      .expand(
        "singleValueExtendedProperties($filter=id eq 'String {66f5a359-4659-4830-9070-00047ec6ac6e} Name TaskId')",
      )
      .get();
    expect(tagged.value).toHaveLength(1);
    expect(tagged.value[0].singleValueExtendedProperties).toEqual([
      { id: 'String {66f5a359-4659-4830-9070-00047ec6ac6e} Name TaskId', value: 't2' },
    ]);
    const bad = await caught(client.api('/me/events').filter('subject has x').get());
    expect(bad).toMatchObject({ statusCode: 400, code: 'ErrorInvalidUrlQueryFilter' });
  });

  it('expands a recurring series into occurrences in calendarView', async () => {
    const master: Event = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).post(
      newEvent({
        subject: 'Standup',
        start: { dateTime: '2030-05-06T09:00:00', timeZone: 'UTC' },
        end: { dateTime: '2030-05-06T09:15:00', timeZone: 'UTC' },
        recurrence: {
          pattern: { type: 'daily', interval: 1 },
          range: { type: 'numbered', startDate: '2030-05-06', numberOfOccurrences: 3 },
        },
      }),
    );
    expect(master.type).toBe('seriesMaster');
    const view = await client
      .api(`/me/calendars/${timeboxerCalendarId}/calendarView`)
      .query({ startDateTime: '2030-05-01T00:00:00Z', endDateTime: '2030-06-01T00:00:00Z' })
      .get();
    expect(view.value.map((e: Event) => [e.type, e.seriesMasterId, e.start.dateTime])).toEqual([
      ['occurrence', master.id, '2030-05-06T09:00:00.0000000'],
      ['occurrence', master.id, '2030-05-07T09:00:00.0000000'],
      ['occurrence', master.id, '2030-05-08T09:00:00.0000000'],
    ]);
    await client.api(`/me/events/${view.value[1].id}`).delete();
    const after = await client
      .api(`/me/calendars/${timeboxerCalendarId}/calendarView`)
      .query({ startDateTime: '2030-05-01T00:00:00Z', endDateTime: '2030-06-01T00:00:00Z' })
      .get();
    expect(after.value).toHaveLength(2);
  });
});

describe('errors', () => {
  it('401 InvalidAuthenticationToken for a bad, a missing and an expired token', async () => {
    const bad = await caught(graphClient(origin, 'not-a-token').api('/me').get());
    expect(bad).toMatchObject({ statusCode: 401, code: 'InvalidAuthenticationToken' });
    const raw = await fetch(`${origin}/v1.0/me`);
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(await raw.json()).toMatchObject({
      error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty.' },
    });
    await control(origin, 'tokens/expire');
    const expired = await caught(client.api('/me').get());
    expect(expired).toMatchObject({
      statusCode: 401,
      code: 'InvalidAuthenticationToken',
      message: 'Lifetime validation failed, the token is expired.',
    });
  });

  it('429 TooManyRequests with Retry-After from a fault rule', async () => {
    await control(origin, 'faults', {
      kind: 'rate-limit',
      path: '/v1.0/me/calendars',
      retryAfterSeconds: 7,
      times: 1,
    });
    const error = await caught(client.api('/me/calendars').middlewareOptions(noRetry()).get());
    expect(error).toMatchObject({
      statusCode: 429,
      code: 'TooManyRequests',
      message: 'Please retry again later.',
    });
    expect(error?.headers?.get('retry-after')).toBe('7');
    expect((await client.api('/me/calendars').get()).value).toHaveLength(2);
  });

  it('the SDK retries a 429 after Retry-After and then succeeds', async () => {
    await control(origin, 'faults', {
      kind: 'rate-limit',
      path: '/v1.0/me/calendars',
      retryAfterSeconds: 0,
      times: 2,
    });
    expect((await client.api('/me/calendars').get()).value).toHaveLength(2);
    const state = await (await fetch(`${origin}/_emulator/state`)).json();
    // One in beforeEach, two throttled, one that went through.
    expect(state.requests['GET /v1.0/me/calendars']).toBe(4);
  });

  it('503 from a fault rule after the SDK gives up retrying', async () => {
    await control(origin, 'faults', { kind: 'status', status: 503, path: '/v1.0/me', retryAfterSeconds: 0 });
    const error = await caught(
      client
        .api('/me')
        .middlewareOptions([new RetryHandlerOptions(0, 1)])
        .get(),
    );
    expect(error).toMatchObject({ statusCode: 503, code: 'ServiceUnavailable' });
    await fetch(`${origin}/_emulator/faults`, { method: 'DELETE' });
  });

  it('stores a create whose response is lost, so the SDK call fails but the event exists', async () => {
    await fetch(`${origin}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // 502: the SDK's RetryHandler retries only 429, 503 and 504, so this one reaches the caller.
      body: JSON.stringify({ kind: 'lose-response', status: 502, method: 'POST', path: '/v1.0/me/' }),
    });
    const error = await caught(client.api(`/me/calendars/${timeboxerCalendarId}/events`).post(newEvent()));
    expect(error).toMatchObject({ statusCode: 502 });
    await fetch(`${origin}/_emulator/faults`, { method: 'DELETE' });
    const list = await client.api(`/me/calendars/${timeboxerCalendarId}/events`).get();
    expect(list.value.map((event: Event) => event.subject)).toEqual(['Write report']);
  });

  it('unknown Graph paths answer BadRequest', async () => {
    const error = await caught(client.api('/me/nothing-here').get());
    expect(error).toMatchObject({ statusCode: 400, code: 'BadRequest' });
  });
});
