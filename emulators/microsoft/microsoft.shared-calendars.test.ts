import type { Client, GraphError } from '@microsoft/microsoft-graph-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { control, graphClient, startMicrosoftEmulator, tokensFor } from './microsoft.testing.ts';

/**
 * Calendars shared with the user: in `/me/calendars` with `canEdit` false (read) or true (write) and
 * the sharer as `owner`; their events read like any calendar's, and a write where the user can only
 * read answers Graph's 403 `ErrorAccessDenied`. docs/provider-facts.md §9.
 */

const ADA = 'ada.lovelace@example.com';
const ALEX = { name: 'Alex Wilber', address: 'alex.wilber@example.com' };
const WINDOW = { startDateTime: '2030-05-01T00:00:00Z', endDateTime: '2030-06-01T00:00:00Z' };
const EVENT = {
  subject: 'Kick-off',
  start: { dateTime: '2030-05-06T09:00:00', timeZone: 'UTC' },
  end: { dateTime: '2030-05-06T10:00:00', timeZone: 'UTC' },
};

let origin: string;
let client: Client;

setUpEmulator(startMicrosoftEmulator, (started) => {
  origin = started.origin;
});
beforeEach(async () => {
  client = graphClient(origin, (await tokensFor(origin, ADA)).access_token);
});

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: GraphError) => error,
  );
async function share(name: string, canEdit: boolean): Promise<string> {
  const response = await control(origin, 'calendars/shared', { email: ADA, name, canEdit, owner: ALEX });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}
const setAccess = async (calendarId: string, canEdit: boolean) =>
  expect((await control(origin, `calendars/${calendarId}/access`, { canEdit })).status).toBe(200);
const denied = {
  statusCode: 403,
  code: 'ErrorAccessDenied',
  message: expect.stringMatching(/^Access is denied/),
};

describe('calendars shared with the user', () => {
  it('lists each with canEdit and its sharer as owner, the user’s own as editable', async () => {
    const read = await share('Kids parties', false);
    const write = await share('Team', true);
    const calendars: Record<string, unknown>[] = (await client.api('/me/calendars').get()).value;
    const byId = new Map(calendars.map((calendar) => [calendar.id, calendar]));
    expect(byId.get(read)).toMatchObject({
      name: 'Kids parties',
      canEdit: false,
      canShare: false,
      canViewPrivateItems: false,
      isDefaultCalendar: false,
      owner: ALEX,
    });
    expect(byId.get(write)).toMatchObject({ name: 'Team', canEdit: true, canShare: false, owner: ALEX });
    const own = calendars.filter((calendar) => calendar.id !== read && calendar.id !== write);
    expect(own.map((calendar) => [calendar.canEdit, calendar.canShare])).toEqual([
      [true, true],
      [true, true],
    ]);
    expect(await client.api(`/me/calendars/${read}`).get()).toMatchObject({ id: read, canEdit: false });
  });

  it('reads a read-only calendar, refuses writes there with 403 ErrorAccessDenied, and takes them once it may write', async () => {
    const calendarId = await share('Kids parties', false);
    const events = `/me/calendars/${calendarId}/events`;
    expect((await client.api(events).get()).value).toEqual([]);
    expect(await caught(client.api(events).post(EVENT))).toMatchObject(denied);

    await setAccess(calendarId, true);
    expect((await client.api(`/me/calendars/${calendarId}`).get()).canEdit).toBe(true);
    const created = await client.api(events).post(EVENT);
    expect(created).toMatchObject({ subject: 'Kick-off' });

    // Read only again: its events still read (list, calendar view, delta), writes to them are refused.
    await setAccess(calendarId, false);
    expect((await client.api(`${events}/${created.id}`).get()).subject).toBe('Kick-off');
    const view = await client.api(`/me/calendars/${calendarId}/calendarView`).query(WINDOW).get();
    expect(view.value.map((event: { id: string }) => event.id)).toEqual([created.id]);
    const delta = await client.api(`/me/calendars/${calendarId}/calendarView/delta`).query(WINDOW).get();
    expect(delta.value.map((event: { id: string }) => event.id)).toEqual([created.id]);
    for (const path of [`/me/events/${created.id}`, `${events}/${created.id}`]) {
      expect(await caught(client.api(path).patch({ subject: 'Renamed' }))).toMatchObject(denied);
      expect(await caught(client.api(path).delete())).toMatchObject(denied);
    }
    expect((await client.api(`${events}/${created.id}`).get()).subject).toBe('Kick-off');
  });

  it('takes event writes where the share lets the user write', async () => {
    const calendarId = await share('Team', true);
    const created = await client.api(`/me/calendars/${calendarId}/events`).post(EVENT);
    const renamed = await client.api(`/me/events/${created.id}`).patch({ subject: 'Kick-off, moved' });
    expect(renamed.subject).toBe('Kick-off, moved');
    await client.api(`/me/events/${created.id}`).delete();
    expect((await client.api(`/me/calendars/${calendarId}/events`).get()).value).toEqual([]);
  });

  it('drops the access to one of the user’s own calendars on request; unknown ids are a 404', async () => {
    const calendars: { id: string }[] = (await client.api('/me/calendars').get()).value;
    const own = calendars[0]?.id ?? '';
    await setAccess(own, false);
    expect(await caught(client.api(`/me/calendars/${own}/events`).post(EVENT))).toMatchObject(denied);
    expect((await control(origin, 'calendars/AAMkADnone=/access', { canEdit: true })).status).toBe(404);
    expect((await control(origin, 'calendars/shared', { email: ADA })).status).toBe(400);
  });
});
