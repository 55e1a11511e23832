import { calendar } from '@googleapis/calendar';
import { describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { control, type Harness, oauthClient, startHarness } from './google-calendar.test-support.ts';

let harness: Harness;
setUpEmulator(startHarness, (started) => {
  harness = started;
});

type State = {
  accounts: { email: string; calendars: { summary: string; timeZone: string; events: { id: string }[] }[] }[];
  grants: unknown[];
  requests: Record<string, number>;
};
const state = async () => (await (await control(harness.origin, 'state', undefined, 'GET')).json()) as State;

describe('control API', () => {
  it('seeds an account, mints a token for it, and shows everything in the state', async () => {
    const seeded = await control(harness.origin, 'accounts', {
      email: 'Grace.Hopper@example.com',
      timeZone: 'America/New_York',
    });
    expect(seeded.status).toBe(201);
    expect(await seeded.json()).toMatchObject({
      email: 'grace.hopper@example.com',
      calendars: [
        {
          id: 'grace.hopper@example.com',
          summary: 'grace.hopper@example.com',
          timeZone: 'America/New_York',
          primary: true,
        },
        { summary: 'Work', primary: false },
        { summary: 'Timeboxer', primary: false },
      ],
    });
    const token = (await (
      await control(harness.origin, 'tokens', { email: 'grace.hopper@example.com' })
    ).json()) as {
      access_token: string;
    };
    const client = oauthClient(harness.origin);
    client.setCredentials({ access_token: token.access_token });
    const api = calendar({ version: 'v3', auth: client, rootUrl: `${harness.origin}/` });
    const { data } = await api.events.insert({
      calendarId: 'primary',
      requestBody: { summary: 'All day', start: { date: '2030-02-01' }, end: { date: '2030-02-02' } },
    });
    const list = await api.events.list({
      calendarId: 'primary',
      timeMin: '2030-02-01T04:00:00Z',
      timeMax: '2030-02-01T06:00:00Z',
    });
    // The day starts at 05:00 UTC in New York, so the all-day event overlaps the window.
    expect(list.data.items?.map((e) => e.id)).toEqual([data.id]);

    const snapshot = await state();
    expect(snapshot.accounts[0]?.calendars[0]?.events.map((e) => e.id)).toEqual([data.id]);
    expect(snapshot.grants).toHaveLength(1);
    expect(snapshot.requests['POST /calendar/v3/calendars/:calendarId/events']).toBe(1);
    expect(snapshot.requests['GET /calendar/v3/calendars/:calendarId/events']).toBe(1);

    await control(harness.origin, 'reset');
    expect(await state()).toMatchObject({ accounts: [], grants: [], requests: {} });
  });

  it('clears fault rules on reset', async () => {
    expect((await control(harness.origin, 'faults', { kind: 'status', status: 503 })).status).toBe(201);
    await control(harness.origin, 'reset');
    const faults = (await (await control(harness.origin, 'faults', undefined, 'GET')).json()) as {
      rules: unknown[];
    };
    expect(faults.rules).toEqual([]);
  });

  it('refuses bad control requests', async () => {
    expect((await control(harness.origin, 'accounts', { email: 'not-an-email' })).status).toBe(400);
    expect(
      (await control(harness.origin, 'accounts', { email: 'a@example.com', timeZone: 'Nowhere/City' }))
        .status,
    ).toBe(400);
    expect(
      (await control(harness.origin, 'tokens', { email: 'a@example.com', scopes: ['bogus'] })).status,
    ).toBe(400);
    expect((await control(harness.origin, 'channels/none/expire')).status).toBe(404);
    expect((await control(harness.origin, 'calendars/none/expire-sync-tokens')).status).toBe(404);
  });
});
