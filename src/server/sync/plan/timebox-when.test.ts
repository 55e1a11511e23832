import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import { calendarEvent } from './plan.fixture.ts';
import { dueWhen, dueWriteForWhen, eventTiming, eventWhen, localDate, startOfDate } from './timebox-when.ts';

const allDay = syncSettings({ datedTasks: 'allday' });
const skip = syncSettings();
const due = (date: string) => ({ date, timezone: null, isRecurring: false, string: '' });

describe('when a timebox is', () => {
  it('starts a day at the user’s midnight, and reads it back as the same date', () => {
    expect(startOfDate('2026-07-16', 'Europe/Berlin')).toEqual(new Date('2026-07-15T22:00:00Z'));
    expect(startOfDate('2026-07-16T09:00:00', 'Europe/Berlin')).toBeNull();
    // Chile skips midnight when its clocks go forward: the day starts at 01:00 and is still that day.
    const skipped = startOfDate('2026-09-06', 'America/Santiago');
    expect(skipped).toEqual(new Date('2026-09-06T04:00:00Z'));
    expect(localDate(skipped as Date, 'America/Santiago')).toBe('2026-09-06');
  });

  it('writes an all-day event from midnight to the next, 23 hours on the day clocks go forward', () => {
    const start = startOfDate('2026-03-29', 'Europe/Berlin') as Date;
    const timing = eventTiming({ start, allDay: true }, 30, 'Europe/Berlin');
    expect(timing.date).toBe('2026-03-29');
    expect(timing.end.getTime() - timing.start.getTime()).toBe(23 * 3_600_000);
    const timed = eventTiming({ start, allDay: false }, 30, 'Europe/Berlin');
    expect(timed).toEqual({ start, end: new Date(start.getTime() + 30 * 60_000), date: null });
  });

  it('reads a date without a time as a whole day only where dated tasks are all-day events', () => {
    expect(dueWhen(due('2026-07-16'), skip)).toBeNull();
    expect(dueWhen(due('2026-07-16'), allDay)).toEqual({
      start: new Date('2026-07-15T22:00:00Z'),
      allDay: true,
    });
    expect(dueWhen(due('2026-07-16T09:00:00'), allDay)).toEqual({
      start: new Date('2026-07-16T07:00:00Z'),
      allDay: false,
    });
    expect(dueWhen(null, allDay)).toBeNull();
  });

  it('reads an all-day event by its date, and a deleted one as nothing', () => {
    const whole = calendarEvent({ start: null, end: null, allDay: true, date: '2026-07-16' });
    expect(eventWhen(whole, skip)).toBeNull();
    expect(eventWhen(whole, allDay)).toEqual({ start: new Date('2026-07-15T22:00:00Z'), allDay: true });
    expect(eventWhen(calendarEvent({ deleted: true }), allDay)).toBeNull();
  });

  it('writes a whole day as a date, keeping a recurrence, and a time as before', () => {
    const start = new Date('2026-07-15T22:00:00Z');
    const recurring = { ...due('2026-07-16'), isRecurring: true, string: 'every day' };
    expect(dueWriteForWhen({ start, allDay: true }, recurring, 'Europe/Berlin')).toEqual({
      kind: 'date',
      date: '2026-07-16',
      string: 'every day',
    });
    expect(dueWriteForWhen({ start, allDay: false }, null, 'Europe/Berlin')).toEqual({
      kind: 'floating',
      local: '2026-07-16T00:00:00',
    });
  });
});
