import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { displayZone, offsetMinutes, zoneLabel, zonesDiffer } from './time-zone.ts';

type Calendar = CurrentUser['calendarSettings']['calendars'][number];
const calendar = (id: string, timeZone: string | null, primary = false): Calendar => ({
  id,
  name: id,
  color: null,
  timeZone,
  primary,
  readOnly: false,
});

/** Only the fields the zone is taken from. */
const user = (todoist: string | null, calendars: Calendar[], calendarId: string | null) =>
  ({
    todoSettings: { connected: todoist !== null, timezone: todoist ? { timezone: todoist } : null },
    calendarSettings: { connected: calendars.length > 0, calendars, calendarId },
  }) as unknown as CurrentUser;

describe('the page’s zone', () => {
  it('is Todoist’s, else the chosen calendar’s, else the main calendar’s, else the browser’s', () => {
    const both = [calendar('main', 'Europe/Berlin', true), calendar('tb', 'Europe/London')];
    expect(displayZone(user('UTC', both, 'tb'), 'Asia/Tokyo')).toEqual({
      timeZone: 'UTC',
      source: 'todoist',
    });
    expect(displayZone(user(null, both, 'tb'), 'Asia/Tokyo')).toEqual({
      timeZone: 'Europe/London',
      source: 'calendar',
    });
    const noZone = [calendar('main', 'Europe/Berlin', true), calendar('tb', null)];
    expect(displayZone(user(null, noZone, 'tb'), 'Asia/Tokyo').timeZone).toBe('Europe/Berlin');
    expect(displayZone(user(null, [], null), 'Asia/Tokyo')).toEqual({
      timeZone: 'Asia/Tokyo',
      source: 'browser',
    });
    expect(displayZone(false, 'Asia/Tokyo').timeZone).toBe('Asia/Tokyo');
    // A name the browser does not know is not a zone.
    expect(displayZone(user('Mars/Olympus', [], null), 'Asia/Tokyo').source).toBe('browser');
  });

  it('is named once, with where it comes from', () => {
    expect(zoneLabel({ timeZone: 'Europe/Berlin', source: 'calendar' })).toBe(
      'Times are in Europe/Berlin, your calendar’s time zone.',
    );
  });

  it('tells when Todoist’s zone and the calendar’s differ, not for two names of one zone', () => {
    const berlin = [calendar('main', 'Europe/Berlin', true)];
    expect(zonesDiffer(user('UTC', berlin, 'main'))).toEqual({ todoist: 'UTC', calendar: 'Europe/Berlin' });
    expect(zonesDiffer(user('Europe/Berlin', berlin, 'main'))).toBeNull();
    expect(zonesDiffer(user('Etc/UTC', [calendar('main', 'UTC', true)], 'main'))).toBeNull();
    expect(zonesDiffer(user(null, berlin, 'main'))).toBeNull();
  });

  it('measures offsets', () => {
    expect(offsetMinutes('Europe/Berlin', Date.UTC(2026, 0, 15, 12))).toBe(60);
    expect(offsetMinutes('Europe/Berlin', Date.UTC(2026, 6, 15, 12))).toBe(120);
    expect(offsetMinutes('Asia/Kolkata', Date.UTC(2026, 0, 15, 12))).toBe(330);
  });
});
