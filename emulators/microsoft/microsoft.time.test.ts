import { describe, expect, it } from 'vitest';
import {
  formatTimestamp,
  formatWallClock,
  isMidnight,
  resolveTimeZone,
  toInstant,
} from './microsoft.time.ts';

describe('Graph dateTimeTimeZone', () => {
  it('resolves Windows and IANA zone names and rejects unknown ones', () => {
    expect(resolveTimeZone('UTC')).toBe('UTC');
    expect(resolveTimeZone('Pacific Standard Time')).toBe('America/Los_Angeles');
    expect(resolveTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(resolveTimeZone('Mars/Olympus')).toBeUndefined();
    expect(resolveTimeZone('EST')).toBeUndefined();
  });

  it('reads wall-clock times in a zone, across daylight-saving changes', () => {
    expect(new Date(toInstant('2030-01-15T09:00:00', 'Europe/Berlin') ?? 0).toISOString()).toBe(
      '2030-01-15T08:00:00.000Z',
    );
    expect(new Date(toInstant('2030-07-15T09:00:00', 'Europe/Berlin') ?? 0).toISOString()).toBe(
      '2030-07-15T07:00:00.000Z',
    );
    // The day clocks go forward in Berlin (31 March 2030).
    expect(new Date(toInstant('2030-03-31T12:00:00.0000000', 'Europe/Berlin') ?? 0).toISOString()).toBe(
      '2030-03-31T10:00:00.000Z',
    );
    expect(new Date(toInstant('2030-07-15T09:00:00-04:00', 'UTC') ?? 0).toISOString()).toBe(
      '2030-07-15T13:00:00.000Z',
    );
    expect(toInstant('2030-02-30T09:00:00', 'UTC')).toBeUndefined();
    expect(toInstant('tomorrow', 'UTC')).toBeUndefined();
  });

  it('writes times as Graph does', () => {
    const instant = Date.UTC(2030, 6, 15, 7, 0, 0, 120);
    expect(formatWallClock(instant, 'UTC')).toBe('2030-07-15T07:00:00.1200000');
    expect(formatWallClock(instant, 'America/New_York')).toBe('2030-07-15T03:00:00.1200000');
    expect(formatTimestamp(instant)).toBe('2030-07-15T07:00:00.1200000Z');
    expect(isMidnight(Date.UTC(2030, 6, 15), 'UTC')).toBe(true);
    expect(isMidnight(Date.UTC(2030, 6, 15), 'Europe/Berlin')).toBe(false);
  });
});
