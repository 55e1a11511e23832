import { describe, expect, it } from 'vitest';
import { UNKNOWN_FIELD } from '../shared/unknown-fields.ts';
import { control, EVENT, setUpSignedInCalendar } from './google-calendar.test-support.ts';

/**
 * Answers with fields the client does not know (`POST /_emulator/unknown-fields`), as Google adds them
 * over time: the official SDK reads them as before (docs/provider-facts.md §13).
 */
const harness = setUpSignedInCalendar();

describe('answers with fields the client does not know', () => {
  it('are read by the SDK as before, the fields on the wire while switched on', async () => {
    await control(harness.origin, 'unknown-fields', { on: true });
    const made = await harness.api.events.insert({ calendarId: 'primary', requestBody: EVENT });
    expect(made.data.summary).toBe(EVENT.summary);
    expect((made.data as Record<string, unknown>)[UNKNOWN_FIELD]).toBeDefined();
    const page = await harness.api.events.list({ calendarId: 'primary' });
    expect(page.data.items?.map((event) => event.id)).toEqual([made.data.id]);
    expect(page.data.nextSyncToken).toBeTruthy();
    const calendars = (await harness.api.calendarList.list()).data.items ?? [];
    expect(calendars.some((entry) => entry.primary)).toBe(true);

    await control(harness.origin, 'unknown-fields', { on: false });
    const plain = await harness.api.events.get({ calendarId: 'primary', eventId: made.data.id ?? '' });
    expect((plain.data as Record<string, unknown>)[UNKNOWN_FIELD]).toBeUndefined();
  });
});
