import { describe, expect, it } from 'vitest';
import { UNKNOWN_FIELD, withUnknownFields } from './unknown-fields.ts';

describe('withUnknownFields', () => {
  it('adds a field to every object at every depth, arrays included, and leaves the rest as it was', () => {
    const richer = withUnknownFields({
      id: '1',
      due: { date: '2026-12-04' },
      labels: ['a'],
      items: [{ id: '2' }],
    });
    expect(richer).toEqual({
      id: '1',
      due: { date: '2026-12-04', [UNKNOWN_FIELD]: expect.any(Object) },
      labels: ['a'],
      items: [{ id: '2', [UNKNOWN_FIELD]: expect.any(Object) }],
      [UNKNOWN_FIELD]: expect.any(Object),
    });
    expect(withUnknownFields(null)).toBeNull();
    expect(withUnknownFields('text')).toBe('text');
  });
});
