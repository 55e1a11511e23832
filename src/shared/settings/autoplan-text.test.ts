import { describe, expect, it } from 'vitest';
import {
  dayReference,
  describeUnplacedDay,
  formatDuration,
  localDateIn,
  shortDate,
  weekdayName,
} from './autoplan-text.ts';

describe('formatDuration', () => {
  it('writes minutes, hours, or hours and minutes', () => {
    expect(formatDuration(45)).toBe('45 min');
    expect(formatDuration(120)).toBe('2 h');
    expect(formatDuration(125)).toBe('2 h 05');
    expect(formatDuration(90)).toBe('1 h 30');
  });

  it('rounds to whole minutes', () => {
    expect(formatDuration(29.6)).toBe('30 min');
  });
});

describe('days in words', () => {
  // 2026-12-03 is a Thursday.
  it('names the weekday and the short date of a day', () => {
    expect(weekdayName('2026-12-03')).toBe('Thursday');
    expect(shortDate('2026-12-07')).toBe('Mon 7 Dec');
  });

  it('leaves text that is no day as it is', () => {
    expect(weekdayName('soon')).toBe('soon');
    expect(shortDate('2026-02-30')).toBe('2026-02-30');
  });

  it('names days of the coming week by weekday, today included, and others by their date', () => {
    const today = '2026-11-30'; // a Monday
    expect(dayReference('2026-11-30', today)).toBe('Monday');
    expect(dayReference('2026-12-03', today)).toBe('Thursday');
    expect(dayReference('2026-12-06', today)).toBe('Sunday');
    expect(dayReference('2026-12-07', today)).toBe('Mon 7 Dec');
    expect(dayReference('2026-11-29', today)).toBe('Sun 29 Nov');
  });

  it('counts days across a change of month and of clocks', () => {
    expect(dayReference('2027-04-02', '2027-03-27')).toBe('Friday');
    expect(dayReference('2027-01-01', '2026-12-31')).toBe('Friday');
  });
});

describe('describeUnplacedDay', () => {
  const today = '2026-11-30';

  it('says how many tasks, how long, and which day', () => {
    expect(describeUnplacedDay({ date: '2026-12-03', tasks: 2, minutes: 90 }, today)).toBe(
      '2 tasks (1 h 30) did not fit on Thursday',
    );
    expect(describeUnplacedDay({ date: '2026-12-07', tasks: 1, minutes: 30 }, today)).toBe(
      '1 task (30 min) did not fit on Mon 7 Dec',
    );
  });
});

describe('localDateIn', () => {
  const at = new Date('2026-11-30T23:30:00Z');

  it('gives the day of an instant in the zone', () => {
    expect(localDateIn('UTC', at)).toBe('2026-11-30');
    expect(localDateIn('Europe/Berlin', at)).toBe('2026-12-01');
    expect(localDateIn('America/Los_Angeles', at)).toBe('2026-11-30');
  });

  it('falls back to the runtime’s zone for a missing or unknown zone', () => {
    const own = localDateIn(undefined, at);
    expect(own).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(localDateIn('Not/A_Zone', at)).toBe(own);
    expect(localDateIn(null, at)).toBe(own);
  });
});
