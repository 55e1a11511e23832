import { describe, expect, it } from 'vitest';
import { calendarDescription, calendarLabel, calendarOptions } from './calendar-label.ts';

describe('the calendar select', () => {
  it('marks the account’s main calendar, and only it', () => {
    expect(calendarLabel({ name: 'Work', primary: true })).toBe('Work (main)');
    expect(calendarLabel({ name: 'Timeboxer', primary: false })).toBe('Timeboxer');
  });

  it('offers every calendar by id, in the provider’s order', () => {
    const calendars = [
      { id: 'a', name: 'Ada', color: null, timeZone: null, primary: true, readOnly: false },
      { id: 'b', name: 'Timeboxer', color: null, timeZone: null, primary: false, readOnly: false },
    ];
    expect(calendarOptions(calendars)).toEqual([
      { value: 'a', label: 'Ada (main)' },
      { value: 'b', label: 'Timeboxer' },
    ]);
    expect(calendarDescription(calendars)).toBe(
      'Timeboxer creates its events here and turns new events here into tasks.',
    );
  });

  it('lists a calendar the account can only read, which cannot be chosen, and says why', () => {
    const calendars = [
      { id: 'a', name: 'Ada', color: null, timeZone: null, primary: true, readOnly: false },
      { id: 't', name: 'Team', color: null, timeZone: null, primary: false, readOnly: true },
    ];
    expect(calendarOptions(calendars)).toEqual([
      { value: 'a', label: 'Ada (main)' },
      { value: 't', label: 'Team (read only)', disabled: true },
    ]);
    expect(calendarDescription(calendars)).toContain(
      'Calendars you can only read cannot hold Timeboxer’s events',
    );
  });
});
