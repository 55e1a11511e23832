import { describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { UNKNOWN_FIELD } from '../shared/unknown-fields.ts';
import { control, startMicrosoftEmulator, timeboxerCalendar } from './microsoft.testing.ts';

/**
 * Answers with fields the client does not know (`POST /_emulator/unknown-fields`), as Graph adds them
 * over time: the official client reads them as before (docs/provider-facts.md §13).
 */
let origin: string;
setUpEmulator(startMicrosoftEmulator, (started) => {
  origin = started.origin;
});

describe('answers with fields the client does not know', () => {
  it('are read by the client as before, the fields on the wire while switched on', async () => {
    const { client, calendarId } = await timeboxerCalendar(origin);
    await control(origin, 'unknown-fields', { on: true });
    const made = await client.api(`/me/calendars/${calendarId}/events`).post({
      subject: 'Review PR',
      start: { dateTime: '2030-05-06T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-05-06T10:00:00', timeZone: 'UTC' },
    });
    expect(made.subject).toBe('Review PR');
    expect(made[UNKNOWN_FIELD]).toBeDefined();
    const listed = (await client.api(`/me/calendars/${calendarId}/events`).get()).value;
    expect(listed.map((event: { id: string }) => event.id)).toEqual([made.id]);

    await control(origin, 'unknown-fields', { on: false });
    expect((await client.api(`/me/events/${made.id}`).get())[UNKNOWN_FIELD]).toBeUndefined();
  });
});
