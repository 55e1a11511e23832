import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ProviderRequestError,
  ProviderUnauthorizedError,
} from '#server/domain/integrations/integration-providers.port.ts';
import { systemClock } from '#server/providers/shared/system-clock.adapter.ts';
import { CalendarGoneError, SyncTokenExpiredError } from '#server/sync/calendar-target.port.ts';
import { RateLimitedError } from '#server/sync/rate-limited-error.ts';
import { createMicrosoftCalendarEvents } from './microsoft-calendar-events.adapter.ts';
import { eventWrite, graphEvent, graphUtc } from './microsoft-graph-events.fixture.ts';

/**
 * What the emulator does not do: Graph's thin delta updates and its other refusals of a delta link.
 * The official client runs as in production; only `fetch` answers from a script.
 */
const GRAPH = 'https://graph.test';
const config = { clientId: 'id', clientSecret: 'secret', authorityUrl: `${GRAPH}/common`, graphUrl: GRAPH };
const adapter = createMicrosoftCalendarEvents(config, systemClock);
const today = new Date().toISOString().slice(0, 10);
const token = `${GRAPH}/v1.0/me/calendars/cal/calendarView/delta?$deltatoken=abc#window=${today}`;

type Route = (url: URL) => { status: number; body: unknown } | undefined;
const requests: string[] = [];
function answer(...routes: Route[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input.url);
      requests.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      for (const route of routes) {
        const found = route(url);
        if (found) return Response.json(found.body, { status: found.status });
      }
      return Response.json({ error: { code: 'ErrorItemNotFound', message: 'no' } }, { status: 404 });
    }),
  );
}
const deltaPage =
  (value: unknown[]): Route =>
  (url) =>
    url.pathname.endsWith('/calendarView/delta')
      ? {
          status: 200,
          body: {
            value,
            '@odata.deltaLink': `${GRAPH}/v1.0/me/calendars/cal/calendarView/delta?$deltatoken=def`,
          },
        }
      : undefined;

afterEach(() => {
  vi.unstubAllGlobals();
  requests.length = 0;
});

describe('a delta round against Graph answers the emulator does not give', () => {
  it('reads the whole event when an update carries only what changed; a vanished one is deleted', async () => {
    answer(
      deltaPage([
        { id: 'thin', subject: 'Renamed' },
        { id: 'gone-meanwhile', changeKey: 'k' },
        {
          id: 'occurrence',
          type: 'occurrence',
          seriesMasterId: 'm',
          start: graphUtc('2030-01-01T09:00:00Z'),
        },
      ]),
      (url) =>
        url.pathname === '/v1.0/me/calendars/cal/events/thin'
          ? {
              status: 200,
              body: graphEvent('thin', 'Renamed', '2030-01-01T09:00:00Z', '2030-01-01T10:00:00Z', {
                categories: [],
                changeKey: 'ck',
                lastModifiedDateTime: '2029-12-01T08:00:00.1234567Z',
                singleValueExtendedProperties: [
                  {
                    id: 'String {66f5a359-4659-4830-9070-00047ec6ac6e} Name TimeboxerTaskId',
                    value: 'task-9',
                  },
                ],
              }),
            }
          : undefined,
    );
    const { events, nextToken, full } = await adapter.changes('t', 'cal', token);
    expect(full).toBe(false);
    expect(nextToken).toBe(
      `${GRAPH}/v1.0/me/calendars/cal/calendarView/delta?$deltatoken=def#window=${today}`,
    );
    expect(events).toEqual([
      expect.objectContaining({
        id: 'thin',
        title: 'Renamed',
        start: new Date('2030-01-01T09:00:00Z'),
        taskTag: 'task-9',
        version: 'ck',
        updatedAt: new Date('2029-12-01T08:00:00.123Z'),
      }),
      expect.objectContaining({ id: 'gone-meanwhile', deleted: true }),
      expect.objectContaining({ id: 'occurrence', recurring: true, deleted: false }),
    ]);
    // The occurrence is not read again: occurrences are never synced.
    expect(requests.filter((request) => request.includes('/events/'))).toEqual([
      'GET /v1.0/me/calendars/cal/events/thin',
      'GET /v1.0/me/calendars/cal/events/gone-meanwhile',
    ]);
  });

  it.each([
    [410, 'syncStateNotFound'],
    [400, 'resyncRequired'],
    [400, 'SyncStateNotFound'],
  ])('turns %i %s into SyncTokenExpiredError', async (status, code) => {
    answer(() => ({ status, body: { error: { code, message: 'Restart the synchronization.' } } }));
    await expect(adapter.changes('t', 'cal', token)).rejects.toBeInstanceOf(SyncTokenExpiredError);
  });
});

describe('a keyed create', () => {
  const created = graphEvent('new', 'T', '2030-05-01T07:00:00Z', '2030-05-01T08:00:00Z', {
    transactionId: 'timeboxer:task-1:key',
  });

  it('looks for an earlier attempt’s event first when the create may repeat one', async () => {
    const methods: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: string, init?: RequestInit) => {
        methods.push(init?.method ?? 'GET');
        return Response.json(init?.method === 'POST' ? created : { value: [] });
      }),
    );
    await adapter.create('t', 'cal', 'key', eventWrite(), 'repeat');
    expect(methods).toEqual(['GET', 'POST']);
  });

  it('spares that search on a first attempt: one call', async () => {
    const methods: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: string, init?: RequestInit) => {
        methods.push(init?.method ?? 'GET');
        return Response.json(created, { status: 201 });
      }),
    );
    expect(await adapter.create('t', 'cal', 'key', eventWrite(), 'first')).toMatchObject({ id: 'new' });
    expect(methods).toEqual(['POST']);
  });
});

describe('writing against Graph answers the emulator does not give', () => {
  it('writes in UTC when Graph does not know the user zone', async () => {
    const bodies: { start: { timeZone: string } }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: string, init?: RequestInit) => {
        // First the search for an earlier attempt's event: none.
        if (init?.method === 'GET') return Response.json({ value: [] });
        bodies.push(JSON.parse(String(init?.body)));
        const refused = bodies.length === 1;
        const body = refused
          ? {
              error: {
                code: 'TimeZoneNotSupportedException',
                message: 'A valid TimeZone value must be specified.',
              },
            }
          : graphEvent('new', 'T', '2030-05-01T07:00:00Z', '2030-05-01T08:00:00Z', {
              transactionId: 'timeboxer:task-1:key',
            });
        return Response.json(body, { status: refused ? 400 : 201 });
      }),
    );
    const created = await adapter.create('t', 'cal', 'key', eventWrite({ timeZone: 'America/Nuuk' }));
    expect(bodies.map((body) => body.start.timeZone)).toEqual(['America/Nuuk', 'UTC']);
    expect(created).toMatchObject({ id: 'new', taskTag: 'task-1', start: new Date('2030-05-01T07:00:00Z') });
  });

  // ErrorAccessDenied: the account can only read the calendar now, or its grant lacks the permission;
  // the calendar's canEdit tells which (provider-facts §9). Any other 403 (here a throttling code) is
  // still a failed request, as before.
  const writes = {
    create: () => adapter.create('t', 'cal', 'key', eventWrite(), 'first'),
    update: () => adapter.update('t', 'cal', 'ev', eventWrite(), 'ck'),
    remove: () => adapter.remove('t', 'cal', 'ev'),
  };
  const calendarRead =
    (canEdit: boolean): Route =>
    (url) =>
      url.pathname === '/v1.0/me/calendars/cal' ? { status: 200, body: { canEdit } } : undefined;
  it.each([
    { code: 'ErrorAccessDenied', canEdit: false, kind: CalendarGoneError },
    { code: 'ErrorAccessDenied', canEdit: true, kind: ProviderUnauthorizedError },
    { code: 'activityLimitReached', canEdit: true, kind: ProviderRequestError },
  ])(
    'turns a 403 $code on a write where canEdit is $canEdit into $kind.name',
    async ({ code, canEdit, kind }) => {
      answer(calendarRead(canEdit), () => ({
        status: 403,
        body: { error: { code, message: 'Access is denied.' } },
      }));
      for (const write of Object.values(writes)) {
        const failure = await write().catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(kind);
        // With its status, by which the run leaves the write for the next one.
        if (kind === ProviderRequestError) expect(failure).toMatchObject({ status: 403 });
      }
    },
  );

  it('takes a 403 ErrorAccessDenied on a write in a calendar gone meanwhile for the calendar gone', async () => {
    answer((url) =>
      url.pathname === '/v1.0/me/calendars/cal'
        ? { status: 404, body: { error: { code: 'ErrorItemNotFound', message: 'Not found.' } } }
        : { status: 403, body: { error: { code: 'ErrorAccessDenied', message: 'Access is denied.' } } },
    );
    await expect(writes.create()).rejects.toBeInstanceOf(CalendarGoneError);
  });
});

describe("the busy times of the account's other calendars (Plan my day)", () => {
  const from = new Date('2030-05-01T00:00:00Z');
  const to = new Date('2030-05-02T00:00:00Z');
  const viewOf = (calendarId: string) => `/v1.0/me/calendars/${calendarId}/calendarView`;
  const view =
    (calendarId: string, value: unknown[]): Route =>
    (url) =>
      url.pathname === viewOf(calendarId) ? { status: 200, body: { value } } : undefined;
  const refused =
    (calendarId: string, status: number, code: string): Route =>
    (url) =>
      url.pathname === viewOf(calendarId) ? { status, body: { error: { code, message: 'No.' } } } : undefined;
  const meeting = (id: string, start: string, end: string, fields = {}) =>
    graphEvent(id, 'Meeting', `2030-05-01T${start}:00Z`, `2030-05-01T${end}:00Z`, fields);
  const span = (start: string, end: string) => ({
    start: new Date(`2030-05-01T${start}:00Z`),
    end: new Date(`2030-05-01T${end}:00Z`),
  });

  it("reads each calendar's view and counts the busy, timed events of all of them", async () => {
    answer(
      view('main', [
        meeting('a', '09:00', '10:00'),
        meeting('free', '12:00', '13:00', { showAs: 'free' }),
        graphEvent('day', 'Holiday', '2030-05-01T00:00:00Z', '2030-05-02T00:00:00Z', { isAllDay: true }),
      ]),
      view('team', [meeting('b', '10:00', '11:00', { showAs: 'tentative' })]),
    );
    const busy = await adapter.busyElsewhere('t', ['main', 'team'], from, to);
    expect(busy).toEqual([span('09:00', '10:00'), span('10:00', '11:00')]);
    expect(requests.sort()).toEqual([`GET ${viewOf('main')}`, `GET ${viewOf('team')}`]);
  });

  it.each([
    [404, 'ErrorItemNotFound'],
    [403, 'ErrorAccessDenied'],
  ])('leaves out a calendar that answers %i %s, and counts the others', async (status, code) => {
    answer(refused('gone', status, code), view('team', [meeting('b', '10:00', '11:00')]));
    expect(await adapter.busyElsewhere('t', ['gone', 'team'], from, to)).toEqual([span('10:00', '11:00')]);
  });

  it.each([
    [500, 'ErrorInternalServerError', ProviderRequestError],
    [429, 'ApplicationThrottled', RateLimitedError],
    [401, 'InvalidAuthenticationToken', ProviderUnauthorizedError],
  ])('still fails the call when one calendar answers %i %s', async (status, code, kind) => {
    answer(refused('broken', status, code), view('team', [meeting('b', '10:00', '11:00')]));
    await expect(adapter.busyElsewhere('t', ['team', 'broken'], from, to)).rejects.toBeInstanceOf(kind);
  });

  it('reads at most four calendars at a time, and none without calendars', async () => {
    expect(await adapter.busyElsewhere('t', [], from, to)).toEqual([]);
    let open = 0;
    let most = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        open += 1;
        most = Math.max(most, open);
        await new Promise((resolve) => setTimeout(resolve, 5));
        open -= 1;
        return Response.json({ value: [meeting('m', '09:00', '10:00')] });
      }),
    );
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
    expect(await adapter.busyElsewhere('t', ids, from, to)).toHaveLength(ids.length);
    expect(most).toBe(4);
  });
});
