import { describe, expect, it } from 'vitest';
import { formatProfileDate } from './format-date.ts';

describe('formatProfileDate', () => {
  it('writes the month name, an ordinal day and the year', () => {
    expect(formatProfileDate('2026-11-05T12:00:00')).toBe('November 5th 2026');
    expect(formatProfileDate('2026-01-22T12:00:00')).toBe('January 22nd 2026');
    expect(formatProfileDate('2026-03-01T12:00:00')).toBe('March 1st 2026');
    expect(formatProfileDate('2026-03-13T12:00:00')).toBe('March 13th 2026');
  });
});
