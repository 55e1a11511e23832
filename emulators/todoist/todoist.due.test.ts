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

describe('nextOccurrence', () => {
  const due = (date: string, string: string, timezone: string | null = null) => ({
    date,
    string,
    lang: 'en',
    is_recurring: true,
    timezone,
  });

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
