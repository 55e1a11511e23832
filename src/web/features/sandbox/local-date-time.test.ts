import { describe, expect, it } from 'vitest';
import {
  dayOfLocalInput,
  formatDueTime,
  fromDateInput,
  fromLocalInput,
  isFloating,
  toDateInput,
  toLocalInput,
} from './local-date-time.ts';

describe('local date-time inputs, in the page’s zone', () => {
  it('round-trips between an input value and an ISO instant', () => {
    const iso = fromLocalInput('2030-05-06T09:30', 'Europe/Berlin');
    expect(iso).toBe('2030-05-06T07:30:00.000Z');
    expect(toLocalInput(iso, 'Europe/Berlin')).toBe('2030-05-06T09:30');
    expect(toLocalInput(iso, 'UTC')).toBe('2030-05-06T07:30');
    // A floating time is its wall time in any zone.
    expect(toLocalInput('2030-05-06T09:30:00', 'Asia/Tokyo')).toBe('2030-05-06T09:30');
  });

  it('treats an empty or broken value as no time', () => {
    expect(fromLocalInput('', 'UTC')).toBeUndefined();
    expect(fromLocalInput('not a date', 'UTC')).toBeUndefined();
    expect(toLocalInput(null, 'UTC')).toBe('');
  });

  it('shows a fixed due in the zone and a floating one as written, marked', () => {
    expect(isFloating('2030-05-06T09:30:00.000000')).toBe(true);
    expect(isFloating('2030-05-06T09:30:00Z')).toBe(false);
    expect(formatDueTime('2030-05-06T07:30:00Z', 'Europe/Berlin')).toMatch(/9:30/);
    expect(formatDueTime('2030-05-06T09:30:00', 'Europe/Berlin')).toMatch(/9:30.*, floating$/);
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
});
