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

let pushStates: (string | string[] | undefined)[] = [];

const harness = setUpSignedInCalendar();

const pushes = setUpPushReceiver((headers) => {
  pushStates.push(headers['x-goog-resource-state']);
});
beforeEach(() => {
  pushStates = [];
});

const create = (requestBody: calendar_v3.Schema$Calendar = { summary: 'Timeboxes' }) =>
  harness.api.calendars.insert({ requestBody }).then((r) => r.data);
const calendarIds = async (client = harness.api) =>
  ((await client.calendarList.list()).data.items ?? []).map((entry) => entry.id);
const insertEvent = (calendarId: string) =>
  harness.api.events.insert({ calendarId, requestBody: EVENT }).then((r) => r.data);

describe('calendars.insert', () => {
  it('makes a secondary calendar the caller owns, on their calendar list', async () => {
    const created = await create({
      summary: 'Timeboxes',
      description: 'Made by Timeboxer',
      location: 'Berlin',
      timeZone: 'Europe/Berlin',
    });
    expect(created).toEqual({
      kind: 'calendar#calendar',
      etag: expect.stringMatching(/^"\d+"$/),
      id: expect.stringMatching(/^c_[0-9a-f]{64}@group\.calendar\.google\.com$/),
      summary: 'Timeboxes',
      description: 'Made by Timeboxer',
      location: 'Berlin',
      timeZone: 'Europe/Berlin',
      dataOwner: 'ada.lovelace@example.com',
      conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
    });
    const id = created.id ?? '';
    expect((await harness.api.calendars.get({ calendarId: id })).data).toEqual(created);

    const entries = (await harness.api.calendarList.list()).data.items ?? [];
    expect(entries.map((entry) => entry.summary)).toEqual([
      'ada.lovelace@example.com',
      'Work',
      'Timeboxer',
      'Timeboxes',
    ]);
    const entry = (await harness.api.calendarList.get({ calendarId: id })).data;
    expect(entry).toMatchObject({
      kind: 'calendar#calendarListEntry',
      id,
      summary: 'Timeboxes',
      accessRole: 'owner',
      timeZone: 'Europe/Berlin',
    });
    expect(entry.primary).toBeUndefined();
  });

  it('gives each new calendar its own id, and UTC when the body names no time zone', async () => {
    const first = await create({ summary: 'One' });
    const second = await create({ summary: 'One' });
    expect(first.id).not.toBe(second.id);
    expect(first.timeZone).toBe('UTC');
  });

  it('answers 400 required "Missing summary." without a summary, and makes nothing', async () => {
    const before = await calendarIds();
    for (const requestBody of [{}, { description: 'no title' }, { summary: '' }]) {
      const result = await failure(harness.api.calendars.insert({ requestBody }));
      expect(result.status).toBe(400);
      expect(result.body?.error).toMatchObject({
        code: 400,
        message: 'Missing summary.',
        errors: [{ domain: 'global', reason: 'required' }],
      });
    }
    const badZone = await failure(
      harness.api.calendars.insert({ requestBody: { summary: 'x', timeZone: 'Mars/Base' } }),
    );
    expect(badZone.status).toBe(400);
    expect(await calendarIds()).toEqual(before);
  });

  it('shows the new calendar in a calendarList incremental sync', async () => {
    const full = (await harness.api.calendarList.list()).data;
    const created = await create();
    const delta = (await harness.api.calendarList.list({ syncToken: full.nextSyncToken ?? '' })).data;
    expect(delta.items?.map((entry) => [entry.id, entry.summary])).toEqual([[created.id, 'Timeboxes']]);
    expect(delta.nextSyncToken).toBeTruthy();
  });

  it('holds events: they go in and are listed from the new calendar only', async () => {
    const calendarId = (await create({ summary: 'Timeboxes', timeZone: 'Europe/Berlin' })).id ?? '';
    const event = await insertEvent(calendarId);
    expect(event.organizer).toEqual({ email: calendarId, displayName: 'Timeboxes', self: true });
    const listed = (await harness.api.events.list({ calendarId })).data;
    expect(listed).toMatchObject({ summary: 'Timeboxes', timeZone: 'Europe/Berlin' });
    expect(listed.items?.map((item) => item.id)).toEqual([event.id]);
    expect((await harness.api.events.list({ calendarId: 'primary' })).data.items).toEqual([]);
  });
});

describe('calendars.patch and calendars.update', () => {
  it('patch changes what the body names and keeps the rest; calendarList follows', async () => {
    const created = await create({ summary: 'Timeboxes', description: 'Made by Timeboxer' });
    const calendarId = created.id ?? '';
    const { data: patched } = await harness.api.calendars.patch({
      calendarId,
      requestBody: { summary: 'Focus', timeZone: 'America/New_York' },
    });
    expect(patched).toMatchObject({
      id: calendarId,
      summary: 'Focus',
      description: 'Made by Timeboxer',
      timeZone: 'America/New_York',
    });
    expect(patched.etag).not.toBe(created.etag);
    expect((await harness.api.calendars.get({ calendarId })).data).toEqual(patched);
    const entries = (await harness.api.calendarList.list()).data.items ?? [];
    expect(entries.find((entry) => entry.id === calendarId)).toMatchObject({
      summary: 'Focus',
      timeZone: 'America/New_York',
      etag: patched.etag,
    });
    const cleared = (await harness.api.calendars.patch({ calendarId, requestBody: { description: null } }))
      .data;
    expect(cleared.description).toBeUndefined();
    expect(cleared.summary).toBe('Focus');
  });

  it('update replaces: what the body leaves out is cleared, and it needs a summary', async () => {
    const calendarId = (await create({ summary: 'Timeboxes', description: 'Made by Timeboxer' })).id ?? '';
    const { data: updated } = await harness.api.calendars.update({
      calendarId,
      requestBody: { summary: 'Renamed', location: 'Home' },
    });
    expect(updated).toMatchObject({ summary: 'Renamed', location: 'Home', timeZone: 'UTC' });
    expect(updated.description).toBeUndefined();

    const missing = await failure(
      harness.api.calendars.update({ calendarId, requestBody: { description: 'no summary' } }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body?.error).toMatchObject({
      message: 'Missing summary.',
      errors: [{ reason: 'required' }],
    });
    expect((await harness.api.calendars.get({ calendarId })).data.summary).toBe('Renamed');
  });

  it('patches the primary calendar too (its time zone, say)', async () => {
    const { data } = await harness.api.calendars.patch({
      calendarId: 'primary',
      requestBody: { timeZone: 'Asia/Tokyo' },
    });
    expect(data).toMatchObject({ id: 'ada.lovelace@example.com', timeZone: 'Asia/Tokyo' });
    expect((await harness.api.calendarList.get({ calendarId: 'primary' })).data.timeZone).toBe('Asia/Tokyo');
  });

  it('answers 404 for a calendar that does not exist', async () => {
    const calendarId = 'c_unknown@group.calendar.google.com';
    const patch = await failure(harness.api.calendars.patch({ calendarId, requestBody: { summary: 'x' } }));
    const update = await failure(harness.api.calendars.update({ calendarId, requestBody: { summary: 'x' } }));
    expect([patch.status, update.status]).toEqual([404, 404]);
    expect(patch.body?.error.errors[0]?.reason).toBe('notFound');
  });
});

describe('calendars.delete', () => {
  it('deletes the calendar with its events: gone from get, calendarList and events.list', async () => {
    const calendarId = (await create()).id ?? '';
    await insertEvent(calendarId);
    const response = await harness.api.calendars.delete({ calendarId });
    expect(response.status).toBe(204);

    const get = await failure(harness.api.calendars.get({ calendarId }));
    expect(get.status).toBe(404);
    expect(get.body?.error.errors[0]?.reason).toBe('notFound');
    expect(await calendarIds()).not.toContain(calendarId);
    expect((await failure(harness.api.calendarList.get({ calendarId }))).status).toBe(404);
    expect((await failure(harness.api.events.list({ calendarId }))).status).toBe(404);
    expect((await failure(harness.api.calendars.delete({ calendarId }))).status).toBe(404);
  });

  it('reports the deletion in calendarList incremental syncs and with showDeleted', async () => {
    const calendarId = (await create()).id ?? '';
    const full = (await harness.api.calendarList.list()).data;
    await harness.api.calendars.delete({ calendarId });
    const delta = (await harness.api.calendarList.list({ syncToken: full.nextSyncToken ?? '' })).data;
    expect(delta.items).toEqual([
      { kind: 'calendar#calendarListEntry', etag: expect.any(String), id: calendarId, deleted: true },
    ]);
    const hidden = await failure(
      harness.api.calendarList.list({ syncToken: full.nextSyncToken ?? '', showDeleted: false }),
    );
    expect(hidden.status).toBe(400);
    const withDeleted = (await harness.api.calendarList.list({ showDeleted: true })).data.items ?? [];
    expect(withDeleted.find((entry) => entry.id === calendarId)?.deleted).toBe(true);
    expect(await calendarIds()).toHaveLength(3);
  });

  it('tells the calendar’s watchers `not_exists`, then ends their channels', async () => {
    const calendarId = (await create()).id ?? '';
    await harness.api.events.watch({
      calendarId,
      requestBody: { id: 'timeboxes', type: 'web_hook', address: pushes.address() },
    });
    await harness.api.calendars.delete({ calendarId });
    await control(harness.origin, 'notifications/flush');
    expect(pushStates).toEqual(['sync', 'not_exists']);
    const state = (await (await control(harness.origin, 'state', undefined, 'GET')).json()) as {
      channels: { id: string; live: boolean }[];
    };
    expect(state.channels).toEqual([expect.objectContaining({ id: 'timeboxes', live: false })]);
  });

  it('refuses the primary calendar: 400 cannotDeletePrimaryCalendar, and it stays', async () => {
    await insertEvent('primary');
    const result = await failure(harness.api.calendars.delete({ calendarId: 'primary' }));
    expect(result.status).toBe(400);
    expect(result.body?.error.errors[0]?.reason).toBe('cannotDeletePrimaryCalendar');
    const byId = await failure(harness.api.calendars.delete({ calendarId: 'ada.lovelace@example.com' }));
    expect(byId.status).toBe(400);
    expect((await harness.api.calendars.get({ calendarId: 'primary' })).status).toBe(200);
    expect((await harness.api.events.list({ calendarId: 'primary' })).data.items).toHaveLength(1);
  });
});

describe('access', () => {
  it('keeps another account out: 404, as Google answers for a calendar one cannot see, and no change', async () => {
    const calendarId = (await create({ summary: 'Ada’s' })).id ?? '';
    const { api: grace } = await signIn(harness.origin, { email: 'grace.hopper@example.com' });
    const attempts = [
      () => grace.calendars.get({ calendarId }),
      () => grace.calendars.patch({ calendarId, requestBody: { summary: 'Grace’s' } }),
      () => grace.calendars.update({ calendarId, requestBody: { summary: 'Grace’s' } }),
      () => grace.calendars.delete({ calendarId }),
    ];
    for (const attempt of attempts) expect((await failure(attempt())).status).toBe(404);
    expect((await harness.api.calendars.get({ calendarId })).data.summary).toBe('Ada’s');
    expect(await calendarIds(grace)).not.toContain(calendarId);
  });

  it('answers 403 insufficientPermissions to a read-only token, and changes nothing', async () => {
    const calendarId = (await create()).id ?? '';
    const { api: readOnly } = await signIn(harness.origin, {
      scope: ['https://www.googleapis.com/auth/calendar.readonly'],
    });
    expect((await readOnly.calendars.get({ calendarId })).status).toBe(200);
    const attempts = [
      () => readOnly.calendars.insert({ requestBody: { summary: 'Read-only' } }),
      () => readOnly.calendars.patch({ calendarId, requestBody: { summary: 'x' } }),
      () => readOnly.calendars.update({ calendarId, requestBody: { summary: 'x' } }),
      () => readOnly.calendars.delete({ calendarId }),
    ];
    for (const attempt of attempts) {
      const result = await failure(attempt());
      expect(result.status).toBe(403);
      expect(result.body?.error).toMatchObject({
        status: 'PERMISSION_DENIED',
        errors: [{ reason: 'insufficientPermissions' }],
      });
    }
    expect((await harness.api.calendars.get({ calendarId })).data.summary).toBe('Timeboxes');
    expect(await calendarIds()).toHaveLength(4);
  });
});
