import { describe, expect, it, vi } from 'vitest';
import type { TaskDue } from '../task-source.port.ts';
import { dateOnlyDue, dueInstant, dueWriteFor, instantToLocal, startOfLocalDay } from './due-time.ts';

const due = (date: string, extra: Partial<TaskDue> = {}): TaskDue => ({
  date,
  timezone: null,
  isRecurring: false,
  string: '',
  ...extra,
});

describe('due times', () => {
  it('reads a floating due in the Todoist user’s zone, across a DST change', () => {
    // Berlin is UTC+1 in winter and UTC+2 in summer.
    expect(dueInstant(due('2026-01-15T09:00:00'), 'Europe/Berlin')?.toISOString()).toBe(
      '2026-01-15T08:00:00.000Z',
    );
    expect(dueInstant(due('2026-07-15T09:00:00'), 'Europe/Berlin')?.toISOString()).toBe(
      '2026-07-15T07:00:00.000Z',
    );
    expect(dueInstant(due('2026-03-29T09:00:00'), 'Europe/Berlin')?.toISOString()).toBe(
      '2026-03-29T07:00:00.000Z',
    );
  });

  it('takes the earlier instant for a time a DST change repeats, whatever the machine’s zone', () => {
    const cases = [
      ['2024-10-27T02:30:00', 'Europe/Berlin', '2024-10-27T00:30:00.000Z'],
      ['2024-10-27T01:30:00', 'Europe/London', '2024-10-27T00:30:00.000Z'],
      ['2024-11-03T01:30:00', 'America/New_York', '2024-11-03T05:30:00.000Z'],
      // Lord Howe moves its clocks by 30 minutes.
      ['2024-04-07T01:45:00', 'Australia/Lord_Howe', '2024-04-06T14:45:00.000Z'],
      // A skipped time moves forward, an ordinary one is itself.
      ['2024-03-31T02:30:00', 'Europe/Berlin', '2024-03-31T01:30:00.000Z'],
      ['2024-10-27T04:00:00', 'Europe/Berlin', '2024-10-27T03:00:00.000Z'],
    ] as const;
    try {
      for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata']) {
        vi.stubEnv('TZ', zone);
        for (const [date, userZone, instant] of cases) {
          expect(dueInstant(due(date), userZone)?.toISOString(), `${date} ${userZone} on ${zone}`).toBe(
            instant,
          );
        }
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('reads a fixed due as the instant it names, whatever the user’s zone', () => {
    const fixed = due('2026-07-15T07:00:00Z', { timezone: 'Europe/Berlin' });
    expect(dueInstant(fixed, 'America/New_York')?.toISOString()).toBe('2026-07-15T07:00:00.000Z');
  });

  it('reads Todoist’s documented forms, with microseconds, in the user’s zone whatever the machine’s', () => {
    try {
      for (const zone of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
        vi.stubEnv('TZ', zone);
        // Floating: 09:00 in Berlin, never 09:00 where the server is.
        expect(dueInstant(due('2026-12-01T09:00:00.000000'), 'Europe/Berlin')?.toISOString(), zone).toBe(
          '2026-12-01T08:00:00.000Z',
        );
        const fixed = due('2016-12-06T13:00:00.000000Z', { timezone: 'Europe/Madrid' });
        expect(dueInstant(fixed, 'Europe/Berlin')?.toISOString(), zone).toBe('2016-12-06T13:00:00.000Z');
        expect(dueInstant(due('2026-12-01T09:00:00+01:00'), 'UTC')?.toISOString()).toBe(
          '2026-12-01T08:00:00.000Z',
        );
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('reads no instant from a time it cannot place, rather than guess one in the server’s zone', () => {
    expect(dueInstant(due('2026-12-01 09:00'), 'Europe/Berlin')).toBeNull();
    expect(dueInstant(due('2026-12-01T09:00:00 PST'), 'Europe/Berlin')).toBeNull();
    expect(dueInstant(due('next monday'), 'Europe/Berlin')).toBeNull();
  });

  it('has no instant for an all-day due', () => {
    expect(dueInstant(due('2026-07-15'), 'UTC')).toBeNull();
    expect(dueInstant(null, 'UTC')).toBeNull();
  });

  it('writes back the same kind of due, keeping a recurrence', () => {
    const start = new Date('2026-07-15T08:30:00Z');
    expect(dueWriteFor(start, due('2026-07-15T09:00:00'), 'Europe/Berlin')).toEqual({
      kind: 'floating',
      local: '2026-07-15T10:30:00',
    });
    expect(
      dueWriteFor(start, due('2026-07-15T07:00:00Z', { timezone: 'Asia/Tokyo' }), 'Europe/Berlin'),
    ).toEqual({
      kind: 'fixed',
      utc: '2026-07-15T08:30:00Z',
      timezone: 'Asia/Tokyo',
    });
    expect(
      dueWriteFor(
        start,
        due('2026-07-15T09:00:00', { isRecurring: true, string: 'every day at 9am' }),
        'UTC',
      ),
    ).toEqual({ kind: 'floating', local: '2026-07-15T08:30:00', string: 'every day at 9am' });
  });

  it('keeps the user’s date when only the date is kept (not the UTC date)', () => {
    // 23:30 in New York is already the next day in UTC.
    expect(dateOnlyDue(new Date('2026-07-16T03:30:00Z'), 'America/New_York')).toEqual({
      kind: 'date',
      date: '2026-07-15',
    });
  });

  it('finds the start of the user’s day', () => {
    expect(startOfLocalDay(new Date('2026-07-16T03:30:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-07-15T04:00:00.000Z',
    );
    expect(instantToLocal(new Date('2026-10-25T01:30:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:30:00');
  });
});
