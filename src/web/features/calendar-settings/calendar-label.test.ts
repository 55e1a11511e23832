import { describe, expect, it } from 'vitest';
import { calendarLabel, calendarOptions } from './calendar-label.ts';

describe('the calendar select', () => {
  it('marks the account’s main calendar, and only it', () => {
    expect(calendarLabel({ name: 'Work', primary: true })).toBe('Work (main)');
    expect(calendarLabel({ name: 'Timeboxer', primary: false })).toBe('Timeboxer');
  });

  it('offers every calendar by id, in the provider’s order', () => {
    const calendars = [
      { id: 'a', name: 'Ada', color: null, timeZone: null, primary: true },
      { id: 'b', name: 'Timeboxer', color: null, timeZone: null, primary: false },
    ];
    expect(calendarOptions(calendars)).toEqual([
      { value: 'a', label: 'Ada (main)' },
      { value: 'b', label: 'Timeboxer' },
    ]);
  });
});
