import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  formatOffset,
  instantOfWallClockMs,
  instantOfWallTime,
  offsetMinutes,
  wallClockMs,
  wallTimeIn,
} from './wall-clock.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('wall clock', () => {
  it('knows zones by their canonical names', () => {
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('Mars/Olympus')).toBeUndefined();
    expect(canonicalTimeZone('UTC+05:00')).toBeUndefined();
  });

  it('reads offsets and wall times of instants', () => {
    const instant = Date.UTC(2030, 6, 1, 8, 0, 0, 120);
    expect(offsetMinutes(instant, 'Asia/Kolkata')).toBe(330);
    expect(offsetMinutes(instant, 'America/New_York')).toBe(-240);
    expect(formatOffset(330)).toBe('+05:30');
    expect(formatOffset(-240)).toBe('-04:00');
    expect(iso(wallClockMs(instant, 'Asia/Kolkata'))).toBe('2030-07-01T13:30:00.120Z');
    expect(wallTimeIn(instant, 'Europe/Berlin')).toEqual({
      year: 2030,
      month: 7,
      day: 1,
      hour: 10,
      minute: 0,
      second: 0,
    });
  });

  it('moves a time in a DST gap forward and takes the earlier of a repeated time, east and west', () => {
    const berlin = (day: number, month: number) =>
      instantOfWallTime({ year: 2030, month, day, hour: 2, minute: 30, second: 0 }, 'Europe/Berlin');
    expect(iso(berlin(31, 3))).toBe('2030-03-31T01:30:00.000Z'); // 03:30 CEST
    expect(iso(berlin(27, 10))).toBe('2030-10-27T00:30:00.000Z'); // the first 02:30, CEST
    const newYork = (wall: string) => iso(instantOfWallClockMs(Date.parse(wall), 'America/New_York'));
    expect(newYork('2030-03-10T02:30:00.250Z')).toBe('2030-03-10T07:30:00.250Z'); // 03:30 EDT
    expect(newYork('2030-11-03T01:30:00Z')).toBe('2030-11-03T05:30:00.000Z'); // the first 01:30, EDT
  });

  it('round-trips every instant outside the repeated hour', () => {
    for (let ms = Date.UTC(2030, 9, 26); ms < Date.UTC(2030, 9, 28); ms += 15 * 60_000) {
      const repeated = ms >= Date.UTC(2030, 9, 27, 1) && ms < Date.UTC(2030, 9, 27, 2);
      if (!repeated) expect(instantOfWallClockMs(wallClockMs(ms, 'Europe/Berlin'), 'Europe/Berlin')).toBe(ms);
    }
  });
});
