import { describe, expect, it } from 'vitest';
import { UNKNOWN_FIELD, withUnknownFields } from './unknown-fields.ts';

describe('withUnknownFields', () => {
  it('adds a field to the answer and to each resource in it at every depth, not to maps or plain values', () => {
    const richer = withUnknownFields({
      items: [{ id: '2', due: { date: '2026-12-04' }, labels: ['a'] }],
      sync_status: { 'uuid-1': 'ok' },
      temp_id_mapping: { 'temp-1': '6X7' },
    });
    expect(richer).toEqual({
      items: [{ id: '2', due: { date: '2026-12-04' }, labels: ['a'], [UNKNOWN_FIELD]: expect.any(Object) }],
      sync_status: { 'uuid-1': 'ok' },
      temp_id_mapping: { 'temp-1': '6X7' },
      [UNKNOWN_FIELD]: expect.any(Object),
    });
    expect(withUnknownFields(null)).toBeNull();
    expect(withUnknownFields('text')).toBe('text');
  });
});
