import { describe, expect, it } from 'vitest';
import { formatWhen, fromLocalInput, toLocalInput } from './local-date-time.ts';

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
