import { describe, expect, it } from 'vitest';
import {
  dayOfLocalInput,
  formatDay,
  formatWhen,
  fromDateInput,
  fromLocalInput,
  toDateInput,
  toLocalInput,
} from './local-date-time.ts';

describe('local date-time inputs', () => {
  it('round-trips between an input value and an ISO instant', () => {
    const iso = fromLocalInput('2030-05-06T09:30');
    expect(iso).toBe(new Date('2030-05-06T09:30').toISOString());
    expect(toLocalInput(iso)).toBe('2030-05-06T09:30');
  });

  it('treats an empty or broken value as no time', () => {
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('not a date')).toBeUndefined();
    expect(toLocalInput(null)).toBe('');
  });

  it('formats a moment for the lists', () => {
    expect(formatWhen(new Date('2030-05-06T09:30').toISOString())).toBe('Mon 6 May, 09:30');
  });
});

describe('date-only dues', () => {
  it('passes a real day from a date input on, and nothing else', () => {
    expect(fromDateInput('2030-05-06')).toBe('2030-05-06');
    expect(fromDateInput('')).toBeUndefined();
    expect(fromDateInput('2030-02-31')).toBeUndefined();
    expect(fromDateInput('2030-05-06T09:30')).toBeUndefined();
  });

  it('fills the date input from a due with a date but no time only', () => {
    expect(toDateInput({ date: '2030-05-06', datetime: null })).toBe('2030-05-06');
    expect(toDateInput({ date: '2030-05-06T09:30:00Z', datetime: '2030-05-06T09:30:00Z' })).toBe('');
    expect(toDateInput(null)).toBe('');
  });

  it('keeps the day of a chosen time when the due becomes date-only', () => {
    expect(dayOfLocalInput('2030-05-06T09:30')).toBe('2030-05-06');
    expect(dayOfLocalInput('')).toBe('');
  });

  it('formats a day for the lists, in the local calendar whatever the zone', () => {
    expect(formatDay('2030-05-06')).toBe('Mon 6 May');
    expect(formatDay('someday')).toBe('someday');
  });
});
