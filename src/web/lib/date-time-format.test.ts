import { describe, expect, it } from 'vitest';
import { dayIn, formatDay, formatInstant, formatWallTime, formatWhen } from './date-time-format.ts';

describe('the one formatter', () => {
  it('shows an instant in the page’s zone, in the locale', () => {
    const start = '2026-12-03T09:00:00Z';
    expect(formatInstant(start, 'Europe/Berlin', 'dayAndTime', 'en-GB')).toBe('Thu 3 Dec, 10:00');
    expect(formatInstant(start, 'America/New_York', 'dayAndTime', 'en-US')).toBe('Thu, Dec 3, 4:00 AM');
    expect(formatInstant(start, 'Europe/Berlin', 'time', 'de-DE')).toBe('10:00');
  });

  it('shows a floating time as written, marked, and a day as the same day everywhere', () => {
    expect(formatWhen({ kind: 'floating', local: '2026-12-03T09:00' }, 'Pacific/Auckland', 'en-GB')).toBe(
      'Thu 3 Dec, 09:00, floating',
    );
    expect(formatWhen({ kind: 'date', date: '2026-12-03' }, 'Pacific/Kiritimati', 'en-GB')).toBe('Thu 3 Dec');
    expect(formatWhen({ kind: 'instant', start: '2026-12-03T23:30:00Z' }, 'Asia/Tokyo', 'en-GB')).toBe(
      'Fri 4 Dec, 08:30',
    );
    expect(formatDay('2026-12-03', 'en-US')).toBe('Thu, Dec 3');
    expect(formatWallTime('not a time')).toBe('not a time');
  });

  it('tells the day of an instant in a zone', () => {
    expect(dayIn('2026-12-03T23:30:00Z', 'Asia/Tokyo')).toBe('2026-12-04');
    expect(dayIn('2026-12-03T23:30:00Z', 'America/Los_Angeles')).toBe('2026-12-03');
  });
});
