import type { calendar_v3 } from '@googleapis/calendar';
import { describe, expect, it } from 'vitest';
import { control, failure, setUpSignedInCalendar } from './google-calendar.test-support.ts';

const harness = setUpSignedInCalendar();

const insert = (summary: string, day = 10) =>
  harness.api.events
    .insert({
      calendarId: 'primary',
      requestBody: {
        summary,
        start: { dateTime: `2030-05-${day}T09:00:00Z` },
        end: { dateTime: `2030-05-${day}T10:00:00Z` },
      },
    })
    .then((r) => r.data);

/** Follows nextPageToken to the end, as a client does; returns the pages. */
async function listAll(params: calendar_v3.Params$Resource$Events$List) {
  const pages: calendar_v3.Schema$Events[] = [];
  let pageToken: string | undefined;
  do {
    const { data } = await harness.api.events.list({ calendarId: 'primary', ...params, pageToken });
    pages.push(data);
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken);
  return pages;
}

describe('paging', () => {
  it('pages with nextPageToken and puts nextSyncToken on the last page only', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await insert(name);
    const pages = await listAll({ maxResults: 2 });
    expect(pages.map((p) => p.items?.map((e) => e.summary))).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(pages.map((p) => Boolean(p.nextPageToken))).toEqual([true, true, false]);
    expect(pages.map((p) => Boolean(p.nextSyncToken))).toEqual([false, false, true]);
    expect(pages[0]).toMatchObject({
      kind: 'calendar#events',
      summary: 'ada.lovelace@example.com',
      timeZone: 'Europe/Berlin',
      accessRole: 'owner',
    });
  });

  it('answers a repeated page request (a client retry) with the same page', async () => {
    for (const name of ['a', 'b', 'c']) await insert(name);
    const first = (await harness.api.events.list({ calendarId: 'primary', maxResults: 2 })).data;
    const pageToken = first.nextPageToken ?? '';
    const once = (await harness.api.events.list({ calendarId: 'primary', maxResults: 2, pageToken })).data;
    const twice = (await harness.api.events.list({ calendarId: 'primary', maxResults: 2, pageToken })).data;
    expect(twice).toEqual(once);
  });
});

describe('incremental sync', () => {
  it('returns only what changed since the sync token, deletions as cancelled', async () => {
    const kept = await insert('kept');
    const changed = await insert('changed');
    const removed = await insert('removed');
    const [full] = await listAll({});
    const syncToken = full?.nextSyncToken ?? '';
    expect(full?.items).toHaveLength(3);

    await harness.api.events.patch({
      calendarId: 'primary',
      eventId: changed.id ?? '',
      requestBody: { summary: 'changed!' },
    });
    await harness.api.events.delete({ calendarId: 'primary', eventId: removed.id ?? '' });
    const added = await insert('added');

    const delta = (await harness.api.events.list({ calendarId: 'primary', syncToken })).data;
    expect(delta.items?.map((e) => [e.id, e.status, e.summary])).toEqual([
      [changed.id, 'confirmed', 'changed!'],
      [removed.id, 'cancelled', undefined],
      [added.id, 'confirmed', 'added'],
    ]);
    expect(Object.keys(delta.items?.[1] ?? {}).sort()).toEqual(['etag', 'id', 'kind', 'status']);
    expect(delta.items?.some((e) => e.id === kept.id)).toBe(false);

    const quiet = (
      await harness.api.events.list({ calendarId: 'primary', syncToken: delta.nextSyncToken ?? '' })
    ).data;
    expect(quiet.items).toEqual([]);
    expect(quiet.nextSyncToken).toBeTruthy();
  });

  it('pages an incremental sync too, with the sync token repeated on every page', async () => {
    const [full] = await listAll({});
    for (const name of ['a', 'b', 'c']) await insert(name);
    const pages = await listAll({ syncToken: full?.nextSyncToken ?? '', maxResults: 2 });
    expect(pages.map((p) => p.items?.length)).toEqual([2, 1]);
    expect(pages[1]?.nextSyncToken).toBeTruthy();
  });

  it('lists deleted events with showDeleted', async () => {
    const gone = await insert('gone');
    await insert('here');
    await harness.api.events.delete({ calendarId: 'primary', eventId: gone.id ?? '' });
    const without = (await harness.api.events.list({ calendarId: 'primary' })).data.items ?? [];
    const withDeleted =
      (await harness.api.events.list({ calendarId: 'primary', showDeleted: true })).data.items ?? [];
    expect(without.map((e) => e.summary)).toEqual(['here']);
    expect(withDeleted.map((e) => [e.id, e.status])).toEqual([
      [gone.id, 'cancelled'],
      [expect.any(String), 'confirmed'],
    ]);
  });

  it('answers 410 fullSyncRequired once the calendar’s sync tokens have expired', async () => {
    await insert('a');
    const [full] = await listAll({});
    const expired = await control(harness.origin, 'calendars/ada.lovelace%40example.com/expire-sync-tokens');
    expect(await expired.json()).toEqual({ expired: 1 });
    const result = await failure(
      harness.api.events.list({ calendarId: 'primary', syncToken: full?.nextSyncToken ?? '' }),
    );
    expect(result.status).toBe(410);
    expect(result.body).toEqual({
      error: {
        errors: [
          {
            domain: 'calendar',
            reason: 'fullSyncRequired',
            message: 'Sync token is no longer valid, a full sync is required.',
            locationType: 'parameter',
            location: 'syncToken',
          },
        ],
        code: 410,
        message: 'Sync token is no longer valid, a full sync is required.',
      },
    });
    const unknown = await failure(
      harness.api.events.list({ calendarId: 'primary', syncToken: 'CAnythingElse' }),
    );
    expect(unknown.status).toBe(410);
    const fresh = await listAll({});
    expect(fresh[0]?.items).toHaveLength(1);
  });

  it('refuses filters a sync token cannot be combined with', async () => {
    const [full] = await listAll({});
    const syncToken = full?.nextSyncToken ?? '';
    for (const extra of [
      { timeMin: '2030-01-01T00:00:00Z' },
      { privateExtendedProperty: ['a=b'] },
      { showDeleted: false },
    ]) {
      const result = await failure(harness.api.events.list({ calendarId: 'primary', syncToken, ...extra }));
      expect(result.status).toBe(400);
    }
  });
});
