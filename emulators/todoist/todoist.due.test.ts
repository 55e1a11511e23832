import { describe, expect, it } from 'vitest';
import { buildDue, nextOccurrence, parseDueString } from './todoist.due.ts';
import { TodoistError } from './todoist.errors.ts';
import { createClock, tzInfo } from './todoist.time.ts';

// 11:00 in Berlin.
const ctx = { now: new Date('2026-03-10T10:00:00Z'), timeZone: 'Europe/Berlin' };

describe('buildDue', () => {
  it('keeps the three date forms apart', () => {
    expect(buildDue({ date: '2026-03-12' }, ctx, 'due_date')).toEqual({
      date: '2026-03-12',
      string: '12 Mar',
      lang: 'en',
      is_recurring: false,
      timezone: null,
    });
    expect(buildDue({ date: '2026-03-12T14:00:00.000000' }, ctx, 'due')?.date).toBe('2026-03-12T14:00:00');
    expect(buildDue({ date: '2026-03-12T14:00:00+01:00' }, ctx, 'due')).toMatchObject({
      date: '2026-03-12T13:00:00Z',
      timezone: 'Europe/Berlin',
    });
    // A floating time with an explicit zone becomes a fixed one.
    expect(buildDue({ date: '2026-03-12T14:00:00', timezone: 'Asia/Tokyo' }, ctx, 'due')).toMatchObject({
      date: '2026-03-12T05:00:00Z',
      timezone: 'Asia/Tokyo',
    });
  });

  it('understands the supported strings', () => {
    expect(buildDue({ string: 'every day at 9am' }, ctx, 'due_string')).toMatchObject({
      date: '2026-03-11T09:00:00',
      is_recurring: true,
    });
    expect(buildDue({ string: 'every day at 14:30' }, ctx, 'due_string')?.date).toBe('2026-03-10T14:30:00');
    expect(buildDue({ string: 'every week' }, ctx, 'due_string')).toMatchObject({
      date: '2026-03-10',
      is_recurring: true,
    });
    expect(buildDue({ string: 'every 2 days at 8:15pm' }, ctx, 'due_string')?.date).toBe(
      '2026-03-10T20:15:00',
    );
    expect(buildDue({ string: 'today' }, ctx, 'due_string')?.date).toBe('2026-03-10');
    expect(buildDue({ string: '2026-04-01 at 7' }, ctx, 'due_string')?.date).toBe('2026-04-01T07:00:00');
    expect(buildDue({ string: 'no date' }, ctx, 'due_string')).toBeNull();
  });

  it('combines a string with an explicit date', () => {
    expect(buildDue({ string: 'every week', date: '2026-03-16T08:00:00Z' }, ctx, 'due')).toMatchObject({
      date: '2026-03-16T08:00:00Z',
      string: 'every week',
      is_recurring: true,
    });
  });

  it('rejects what it cannot parse', () => {
    expect(() => buildDue({ string: 'sometime soon' }, ctx, 'due_string')).toThrow(TodoistError);
    expect(() => buildDue({ date: '2026-02-30' }, ctx, 'due_date')).toThrow(TodoistError);
    expect(parseDueString('every 0 days')).toBeUndefined();
    expect(parseDueString('every day at 25:00')).toBeUndefined();
  });
});

/** A recurring due as Todoist stores it. */
const due = (date: string, string: string, timezone: string | null = null) => ({
  date,
  string,
  lang: 'en',
  is_recurring: true,
  timezone,
});

describe('nextOccurrence', () => {
  it('moves a future occurrence by one step', () => {
    expect(nextOccurrence(due('2026-03-20', 'every day'), ctx).date).toBe('2026-03-21');
    expect(nextOccurrence(due('2026-03-20T09:00:00', 'every week at 9'), ctx).date).toBe(
      '2026-03-27T09:00:00',
    );
  });

  it('skips past occurrences', () => {
    expect(nextOccurrence(due('2026-03-01', 'every 3 days'), ctx).date).toBe('2026-03-10');
    expect(nextOccurrence(due('2026-03-09T09:00:00', 'every day at 9am'), ctx).date).toBe(
      '2026-03-11T09:00:00',
    );
  });

  it('keeps the local time of a fixed-zone task across a DST change', () => {
    const late = { now: new Date('2026-03-28T06:00:00Z'), timeZone: 'Europe/Berlin' };
    expect(nextOccurrence(due('2026-03-28T08:00:00Z', 'every day at 9am', 'Europe/Berlin'), late).date).toBe(
      '2026-03-29T07:00:00Z',
    );
  });

  it('counts "every!" from the completion day', () => {
    expect(nextOccurrence(due('2026-03-01', 'every! 2 days'), ctx).date).toBe('2026-03-12');
  });
});

describe('weekday and monthly recurrences', () => {
  // ctx: Tuesday 10 March 2026, 11:00 in Berlin.
  const first = (string: string) => buildDue({ string }, ctx, 'due_string');

  it('parses weekday names (full and short), "every weekday" and months', () => {
    expect(parseDueString('every monday')).toMatchObject({ recurrence: { kind: 'weekdays', days: [1] } });
    expect(parseDueString('Every Mon at 9am')).toMatchObject({
      recurrence: { kind: 'weekdays', days: [1] },
      time: { hours: 9, minutes: 0 },
    });
    expect(parseDueString('every fri, mon')).toMatchObject({ recurrence: { days: [1, 5] } });
    expect(parseDueString('every weekday')).toMatchObject({ recurrence: { days: [1, 2, 3, 4, 5] } });
    expect(parseDueString('every month')).toMatchObject({ recurrence: { kind: 'months', every: 1 } });
    expect(parseDueString('every 3 months at 8pm')).toMatchObject({
      recurrence: { kind: 'months', every: 3 },
      time: { hours: 20, minutes: 0 },
    });
    expect(parseDueString('every funday')).toBeUndefined();
    expect(parseDueString('every 0 months')).toBeUndefined();
  });

  it('starts on the first matching day, today when its time is still ahead', () => {
    expect(first('every monday')).toMatchObject({ date: '2026-03-16', is_recurring: true });
    expect(first('every mon at 9am')?.date).toBe('2026-03-16T09:00:00');
    expect(first('every tuesday at 9am')?.date).toBe('2026-03-17T09:00:00');
    expect(first('every tue at 14:00')?.date).toBe('2026-03-10T14:00:00');
    expect(first('every weekday')?.date).toBe('2026-03-10');
    expect(first('every weekday at 9')?.date).toBe('2026-03-11T09:00:00');
    expect(first('every month')?.date).toBe('2026-03-10');
    expect(first('every 3 months at 8pm')?.date).toBe('2026-03-10T20:00:00');
  });

  it('rolls to the next matching day on completion', () => {
    expect(nextOccurrence(due('2026-03-16', 'every monday'), ctx).date).toBe('2026-03-23');
    // Friday → Monday.
    expect(nextOccurrence(due('2026-03-13T09:00:00', 'every weekday at 9'), ctx).date).toBe(
      '2026-03-16T09:00:00',
    );
    expect(nextOccurrence(due('2026-01-15', 'every month'), ctx).date).toBe('2026-03-15');
    expect(nextOccurrence(due('2026-03-10', 'every 2 months'), ctx).date).toBe('2026-05-10');
    // The 31st becomes the last day of a shorter month.
    const february = { now: new Date('2026-02-01T10:00:00Z'), timeZone: 'Europe/Berlin' };
    expect(nextOccurrence(due('2026-01-31', 'every month'), february).date).toBe('2026-02-28');
  });

  it('rolls in the user’s time zone, keeping the local time across DST', () => {
    // Friday 20:00 UTC is already Saturday in Tokyo, so Friday is past: next is Monday.
    const tokyo = { now: new Date('2026-03-13T20:00:00Z'), timeZone: 'Asia/Tokyo' };
    expect(nextOccurrence(due('2026-03-12', 'every weekday'), tokyo).date).toBe('2026-03-16');
    const utc = { now: new Date('2026-03-13T20:00:00Z'), timeZone: 'UTC' };
    expect(nextOccurrence(due('2026-03-12', 'every weekday'), utc).date).toBe('2026-03-13');
    // Monday 09:00 in Berlin: 08:00Z in winter time, 07:00Z after the change on 29 March.
    const late = { now: new Date('2026-03-24T10:00:00Z'), timeZone: 'Europe/Berlin' };
    expect(
      nextOccurrence(due('2026-03-23T08:00:00Z', 'every monday at 9am', 'Europe/Berlin'), late).date,
    ).toBe('2026-03-30T07:00:00Z');
  });
});

describe('time helpers', () => {
  it('reports tz_info with half-hour offsets', () => {
    expect(tzInfo('Asia/Kolkata', ctx.now)).toEqual({
      gmt_string: '+05:30',
      hours: 5,
      is_dst: 0,
      minutes: 30,
      timezone: 'Asia/Kolkata',
    });
  });

  it('hands out strictly increasing microsecond timestamps', () => {
    const clock = createClock(() => ctx.now);
    const [a, b] = [clock.stamp(), clock.stamp()];
    expect(a).toBe('2026-03-10T10:00:00.000000Z');
    expect(b).toBe('2026-03-10T10:00:00.000001Z');
  });
});
