import type { Client, GraphError } from '@microsoft/microsoft-graph-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { control, startMicrosoftEmulator, timeboxerCalendar } from './microsoft.testing.ts';

let origin: string;
let client: Client;
let calendarId: string;

type DeltaItem = { id: string; subject?: string; '@removed'?: { reason: string }; '@odata.type': string };
type DeltaPage = {
  value: DeltaItem[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
  '@odata.context': string;
};

const WINDOW = { startDateTime: '2030-05-01T00:00:00Z', endDateTime: '2030-06-01T00:00:00Z' };
const PAGE_OF_TWO = 'odata.maxpagesize=2';

setUpEmulator(startMicrosoftEmulator, (started) => {
  origin = started.origin;
});
beforeEach(async () => {
  ({ client, calendarId } = await timeboxerCalendar(origin));
});

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: GraphError) => error,
  );

function createEvent(
  subject: string,
  day: number,
  calendar = calendarId,
  extra: Record<string, unknown> = {},
) {
  const date = `2030-05-${String(day).padStart(2, '0')}`;
  return client.api(`/me/calendars/${calendar}/events`).post({
    subject,
    start: { dateTime: `${date}T09:00:00`, timeZone: 'UTC' },
    end: { dateTime: `${date}T10:00:00`, timeZone: 'UTC' },
    ...extra,
  });
}

/** Follows nextLinks to the end of a round, as the product will: pages and the final deltaLink. */
async function round(first: string | { query: Record<string, string> }, prefer = PAGE_OF_TWO) {
  const pages: DeltaPage[] = [];
  let page: DeltaPage =
    typeof first === 'string'
      ? await client.api(first).header('Prefer', prefer).get()
      : await client
          .api(`/me/calendars/${calendarId}/calendarView/delta`)
          .query(first.query)
          .header('Prefer', prefer)
          .get();
  pages.push(page);
  while (page['@odata.nextLink']) {
    page = await client.api(page['@odata.nextLink']).header('Prefer', prefer).get();
    pages.push(page);
  }
  return { pages, items: pages.flatMap((p) => p.value), deltaLink: page['@odata.deltaLink'] ?? '' };
}

describe('calendarView delta', () => {
  it('pages the initial round with absolute https links and ends with a deltaLink', async () => {
    for (let day = 1; day <= 5; day++) await createEvent(`Event ${day}`, day);
    await createEvent('Outside the window', 1, calendarId, {
      start: { dateTime: '2030-07-01T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-07-01T10:00:00', timeZone: 'UTC' },
    });
    await client.api('/me/events').post({
      subject: 'In the default calendar',
      start: { dateTime: '2030-05-02T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-05-02T10:00:00', timeZone: 'UTC' },
    });

    const { pages, items, deltaLink } = await round({ query: WINDOW });
    expect(pages.map((p) => p.value.length)).toEqual([2, 2, 1]);
    expect(pages[0]?.['@odata.context']).toBe(`${origin}/v1.0/$metadata#Collection(event)`);
    expect(pages[0]?.['@odata.nextLink']).toMatch(
      new RegExp(`^${origin}/v1.0/me/calendars/[^/]+/calendarView/delta\\?\\$skiptoken=`),
    );
    expect(deltaLink).toMatch(
      new RegExp(`^${origin}/v1.0/me/calendars/[^/]+/calendarView/delta\\?\\$deltatoken=`),
    );
    expect(items.map((item) => item.subject)).toEqual([
      'Event 1',
      'Event 2',
      'Event 3',
      'Event 4',
      'Event 5',
    ]);
    expect(items.every((item) => item['@odata.type'] === '#microsoft.graph.event')).toBe(true);
  });

  it('returns only the changes on the deltaLink, deleted ones as @removed', async () => {
    const kept = await createEvent('Kept', 1);
    const changed = await createEvent('Changed', 2);
    const deleted = await createEvent('Deleted', 3);
    const moved = await createEvent('Moved away', 4);
    const { deltaLink } = await round({ query: WINDOW });

    const created = await createEvent('Created', 5);
    await client.api(`/me/events/${changed.id}`).patch({ subject: 'Changed again' });
    await client.api(`/me/events/${deleted.id}`).delete();
    await client.api(`/me/events/${moved.id}`).patch({
      start: { dateTime: '2030-08-01T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-08-01T10:00:00', timeZone: 'UTC' },
    });

    const next = await round(deltaLink);
    const byId = new Map(next.items.map((item) => [item.id, item]));
    expect(byId.has(kept.id)).toBe(false);
    expect(byId.get(created.id)?.subject).toBe('Created');
    expect(byId.get(changed.id)?.subject).toBe('Changed again');
    expect(byId.get(deleted.id)).toEqual({
      '@odata.type': '#microsoft.graph.event',
      id: deleted.id,
      '@removed': { reason: 'deleted' },
    });
    expect(byId.get(moved.id)?.['@removed']).toEqual({ reason: 'deleted' });
    expect(next.items).toHaveLength(4);

    const quiet = await round(next.deltaLink);
    expect(quiet.items).toEqual([]);
    expect(quiet.deltaLink).toMatch(/\$deltatoken=/);
  });

  it('answers 410 syncStateNotFound with a restart Location once delta tokens expire', async () => {
    await createEvent('Before', 1);
    const { deltaLink } = await round({ query: WINDOW });
    const expired = await (await fetch(`${origin}/_emulator/delta/expire`, { method: 'POST' })).json();
    expect(expired.expired).toBeGreaterThan(0);

    const error = await caught(client.api(deltaLink).get());
    expect(error).toMatchObject({ statusCode: 410, code: 'syncStateNotFound' });
    const location = error?.headers?.get('location') ?? '';
    expect(location).toMatch(
      new RegExp(`^${origin}/v1.0/me/calendars/.+/calendarView/delta\\?\\$deltatoken=&startDateTime=`),
    );

    const restarted = await round(location);
    expect(restarted.items.map((item) => item.subject)).toEqual(['Before']);
    const garbage = await caught(
      client.api(`/me/calendars/${calendarId}/calendarView/delta?$deltatoken=nonsense`).get(),
    );
    expect(garbage).toMatchObject({ statusCode: 410, code: 'syncStateNotFound' });
  });

  it('reports series occurrences, and their removal when the series is deleted', async () => {
    const series = await createEvent('Standup', 6, calendarId, {
      recurrence: {
        pattern: { type: 'weekly', interval: 1, daysOfWeek: ['monday', 'wednesday'] },
        range: { type: 'endDate', startDate: '2030-05-06', endDate: '2030-05-15' },
      },
    });
    const initial = await round({ query: WINDOW }, 'odata.maxpagesize=50');
    expect(
      initial.items.map((item) => (item as unknown as { start: { dateTime: string } }).start.dateTime),
    ).toEqual([
      '2030-05-06T09:00:00.0000000',
      '2030-05-08T09:00:00.0000000',
      '2030-05-13T09:00:00.0000000',
      '2030-05-15T09:00:00.0000000',
    ]);
    expect(initial.items.every((item) => (item as unknown as { type: string }).type === 'occurrence')).toBe(
      true,
    );
    await client.api(`/me/events/${series.id}`).delete();
    const after = await round(initial.deltaLink, 'odata.maxpagesize=50');
    expect(after.items.map((item) => item.id).sort()).toEqual(initial.items.map((item) => item.id).sort());
    expect(after.items.every((item) => item['@removed']?.reason === 'deleted')).toBe(true);
  });

  it('serves the default calendar at /me/calendarView/delta and honours Prefer: outlook.timezone', async () => {
    await client.api('/me/events').post({
      subject: 'Default',
      start: { dateTime: '2030-05-02T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-05-02T10:00:00', timeZone: 'UTC' },
    });
    const page = await client
      .api('/me/calendarView/delta')
      .query(WINDOW)
      .header('Prefer', 'outlook.timezone="Eastern Standard Time"')
      .get();
    expect(page.value).toHaveLength(1);
    expect(page.value[0].start).toEqual({
      dateTime: '2030-05-02T05:00:00.0000000',
      timeZone: 'Eastern Standard Time',
    });
    expect(page['@odata.deltaLink']).toMatch(
      new RegExp(`^${origin}/v1.0/me/calendarView/delta\\?\\$deltatoken=`),
    );
  });

  it('rejects $select and a missing window like Graph', async () => {
    const select = await caught(
      client.api(`/me/calendars/${calendarId}/calendarView/delta`).query(WINDOW).select('subject').get(),
    );
    expect(select).toMatchObject({ statusCode: 400, code: 'ErrorInvalidUrlQuery' });
    const noWindow = await caught(client.api(`/me/calendars/${calendarId}/calendarView/delta`).get());
    expect(noWindow).toMatchObject({ statusCode: 400, code: 'ErrorInvalidParameter' });
  });

  it('sends an updated event as only its changed properties when told to (settings)', async () => {
    const settings = await control(origin, 'settings', { deltaChangedPropertiesOnly: true });
    expect(await settings.json()).toMatchObject({ deltaChangedPropertiesOnly: true });
    const changed = await createEvent('Changed', 2);
    const { deltaLink } = await round({ query: WINDOW });
    await client.api(`/me/events/${changed.id}`).patch({ subject: 'Renamed' });
    await client.api(`/me/events/${changed.id}`).patch({ categories: ['Blue category'] });
    const added = await createEvent('Added', 5);

    const { items } = await round(deltaLink);
    const updated = items.find((item) => item.id === changed.id) as Record<string, unknown>;
    expect(Object.keys(updated).sort()).toEqual(
      [
        '@odata.etag',
        '@odata.type',
        'categories',
        'changeKey',
        'id',
        'lastModifiedDateTime',
        'subject',
      ].sort(),
    );
    expect(updated).toMatchObject({ subject: 'Renamed', categories: ['Blue category'] });
    // A new event is always whole.
    expect(items.find((item) => item.id === added.id)).toMatchObject({
      subject: 'Added',
      start: expect.any(Object),
      end: expect.any(Object),
    });
  });
});
