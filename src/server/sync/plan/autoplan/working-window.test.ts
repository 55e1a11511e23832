import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oracleWallClockInstant } from './wall-clock-oracle.fixture.ts';
import {
  isoWeekday,
  minuteOfDay,
  parseWorkingHours,
  wallClockInstant,
  workingWindow,
} from './working-window.ts';

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'Pacific/Chatham',
];
/** Daylight-saving change days of the zones above, and ordinary days. */
const DATES = [
  '2024-03-10',
  '2024-03-31',
  '2024-04-07',
  '2024-09-29',
  '2024-10-06',
  '2024-10-27',
  '2024-11-03',
  '2024-05-06',
  '2024-12-31',
];
const iso = (instant: Date) => instant.toISOString();

describe('wall-clock times in a zone', () => {
  it('reads weekdays and times of day', () => {
    expect(isoWeekday('2024-05-06')).toBe(1);
    expect(isoWeekday('2024-05-12')).toBe(7);
    expect(minuteOfDay('00:00')).toBe(0);
    expect(minuteOfDay('17:45')).toBe(1065);
    expect(minuteOfDay('24:00')).toBe(1440);
    for (const bad of ['24:05', '9:00', '12:60', 'noon']) expect(() => minuteOfDay(bad)).toThrow(RangeError);
  });

  it('moves a time skipped by spring-forward to the first instant after the jump', () => {
    expect(iso(wallClockInstant('2024-03-31', 150, 'Europe/Berlin'))).toBe('2024-03-31T01:00:00.000Z');
    expect(iso(wallClockInstant('2024-03-10', 120, 'America/New_York'))).toBe('2024-03-10T07:00:00.000Z');
    // Lord Howe jumps half an hour, from 02:00 to 02:30.
    expect(iso(wallClockInstant('2024-10-06', 135, 'Australia/Lord_Howe'))).toBe('2024-10-05T15:30:00.000Z');
  });

  it('takes the earlier instant of a time repeated by fall-back', () => {
    expect(iso(wallClockInstant('2024-10-27', 150, 'Europe/Berlin'))).toBe('2024-10-27T00:30:00.000Z');
    expect(iso(wallClockInstant('2024-11-03', 90, 'America/New_York'))).toBe('2024-11-03T05:30:00.000Z');
  });

  it('gives no working window on a day off', () => {
    const hours = parseWorkingHours({ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', gapMinutes: 0 });
    expect(workingWindow('2024-05-11', hours, 'UTC')).toBeNull();
    expect(workingWindow('2024-05-10', hours, 'UTC')).toEqual({
      start: new Date('2024-05-10T09:00:00Z'),
      end: new Date('2024-05-10T17:00:00Z'),
    });
  });

  it('agrees with a scan of the wall clock, for any zone, DST day and time', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...DATES),
        // Half the times in the small hours, where clocks change.
        fc.oneof(fc.integer({ min: 0, max: 48 }), fc.integer({ min: 0, max: 288 })).map((fives) => fives * 5),
        (zone, date, minute) => {
          expect(wallClockInstant(date, minute, zone).getTime()).toBe(
            oracleWallClockInstant(date, minute, zone),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });
});
