import { describe, expect, it } from 'vitest';
import { control, EVENT, failure, setUpSignedInCalendar } from './google-calendar.test-support.ts';

/**
 * Calendars shared with the account: on its calendar list with their `accessRole`; a calendar it can
 * only read answers a write of an event with Google's 403 `requiredAccessLevel` (not a quota error),
 * while its events stay readable. docs/provider-facts.md §9.
 */

const harness = setUpSignedInCalendar();

async function share(accessRole: string) {
  const response = await control(harness.origin, 'calendars/shared', {
    email: 'ada.lovelace@example.com',
    summary: `Team (${accessRole})`,
    accessRole,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('calendars shared with the account', () => {
  it('lists each with its access role, the account’s own as owner', async () => {
    const reader = await share('reader');
    const writer = await share('writer');
    const entries = (await harness.api.calendarList.list()).data.items ?? [];
    const roles = Object.fromEntries(entries.map((entry) => [entry.id, entry.accessRole]));
    expect(roles[reader]).toBe('reader');
    expect(roles[writer]).toBe('writer');
    expect(entries.filter((entry) => entry.primary).map((entry) => entry.accessRole)).toEqual(['owner']);
  });

  it('refuses event writes where the account can only read, with 403 requiredAccessLevel', async () => {
    const reader = await share('reader');
    const refused = await failure(harness.api.events.insert({ calendarId: reader, requestBody: EVENT }));
    expect(refused.status).toBe(403);
    expect(refused.body?.error.errors).toEqual([
      expect.objectContaining({ reason: 'requiredAccessLevel', domain: 'calendar' }),
    ]);
    expect(refused.body?.error.message).toBe('You need to have writer access to this calendar.');
    // Reading is allowed.
    expect((await harness.api.events.list({ calendarId: reader })).data.items).toEqual([]);
  });

  it('refuses to move an event out of, or into, a calendar the account can only read', async () => {
    const writer = await share('writer');
    const made = await harness.api.events.insert({ calendarId: writer, requestBody: EVENT });
    const eventId = made.data.id ?? '';
    await control(harness.origin, `calendars/${encodeURIComponent(writer)}/access`, { accessRole: 'reader' });
    const out = await failure(
      harness.api.events.move({ calendarId: writer, eventId, destination: 'primary' }),
    );
    expect(out.status).toBe(403);
    expect(out.body?.error.errors).toEqual([expect.objectContaining({ reason: 'requiredAccessLevel' })]);
    expect((await harness.api.events.get({ calendarId: writer, eventId })).data.status).toBe('confirmed');

    const own = await harness.api.events.insert({ calendarId: 'primary', requestBody: EVENT });
    const into = await failure(
      harness.api.events.move({ calendarId: 'primary', eventId: own.data.id ?? '', destination: writer }),
    );
    expect(into.status).toBe(403);
  });

  it('takes event writes where the account is a writer', async () => {
    const writer = await share('writer');
    const created = await harness.api.events.insert({ calendarId: writer, requestBody: EVENT });
    expect(created.status).toBe(200);
  });
});
