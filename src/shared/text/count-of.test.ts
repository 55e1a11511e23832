import { describe, expect, it } from 'vitest';
import { countOf } from './count-of.ts';

describe('countOf', () => {
  it('says one in the singular, any other count in the plural', () => {
    expect(countOf(1, 'event')).toBe('1 event');
    expect(countOf(0, 'event')).toBe('0 events');
    expect(countOf(6, 'task made from an event', 'tasks made from events')).toBe('6 tasks made from events');
  });
});
