import { describe, expect, it } from 'vitest';
import { instantOfWallTime } from '../shared/wall-clock.ts';
import { formatInZone, parseInstant } from './google-calendar.time-zones.ts';

const wall = (day: number, month: number, hour: number, minute = 0) => ({
  year: 2030,
  month,
  day,
  hour,
  minute,
  second: 0,
});

describe('time zones', () => {
  it('renders instants in a zone with its offset, and Z for UTC', () => {
    const instant = Date.UTC(2030, 6, 1, 8, 0, 0);
    expect(formatInZone(instant, 'Europe/Berlin')).toBe('2030-07-01T10:00:00+02:00');
    expect(formatInZone(instant, 'America/New_York')).toBe('2030-07-01T04:00:00-04:00');
    expect(formatInZone(instant, 'Asia/Kolkata')).toBe('2030-07-01T13:30:00+05:30');
    expect(formatInZone(instant, 'UTC')).toBe('2030-07-01T08:00:00Z');
  });

  it('maps local times to instants across DST changes', () => {
    expect(instantOfWallTime(wall(1, 7, 10), 'Europe/Berlin')).toBe(Date.UTC(2030, 6, 1, 8));
    // 02:30 does not exist on 2030-03-31 in Berlin: it becomes 03:30 CEST.
    expect(formatInZone(instantOfWallTime(wall(31, 3, 2, 30), 'Europe/Berlin'), 'Europe/Berlin')).toBe(
      '2030-03-31T03:30:00+02:00',
    );
    // 02:30 happens twice on 2030-10-27: the first one (CEST) wins.
    expect(formatInZone(instantOfWallTime(wall(27, 10, 2, 30), 'Europe/Berlin'), 'Europe/Berlin')).toBe(
      '2030-10-27T02:30:00+02:00',
    );
  });

  it('parses RFC 3339 instants only with an offset', () => {
    expect(parseInstant('2030-01-01T10:00:00.250+01:00')).toBe(Date.UTC(2030, 0, 1, 9));
    expect(parseInstant('2030-01-01T10:00:00')).toBeUndefined();
    expect(parseInstant('2030-13-01T10:00:00Z')).toBeUndefined();
  });
});
