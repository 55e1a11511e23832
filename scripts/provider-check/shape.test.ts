import { describe, expect, it } from 'vitest';
import { differences, shapeOf } from './shape.ts';

describe('the shape of an answer', () => {
  it('keeps each field’s type, objects field by field and an array by its first element', () => {
    expect(
      shapeOf({ id: '1', due: { date: '2026-12-01', timezone: null }, labels: ['a', 'b'], n: 3 }),
    ).toEqual({
      due: { date: 'string', timezone: 'null' },
      id: 'string',
      labels: ['string'],
      n: 'number',
    });
    expect(shapeOf([])).toEqual([]);
  });
});

describe('the differences between the emulator and a live account', () => {
  const seen = (step: string, status: number, body: unknown) => ({ step, status, shape: shapeOf(body) });

  it('names a field missing or extra on one side, a retyped one and another status', () => {
    const emulator = [
      seen('read', 200, { id: 'a', extra: 1, due: { date: 'x' } }),
      seen('delete', 204, null),
    ];
    const live = [
      seen('read', 200, { id: 7, due: { date: 'y', string: 'every day' } }),
      seen('delete', 200, {}),
    ];
    expect(differences(emulator, live)).toEqual([
      { step: 'read', path: 'due.string', emulator: null, live: 'string' },
      { step: 'read', path: 'extra', emulator: 'number', live: null },
      { step: 'read', path: 'id', emulator: 'string', live: 'number' },
      { step: 'delete', path: '(status)', emulator: '204', live: '200' },
      { step: 'delete', path: '', emulator: 'null', live: 'object' },
    ]);
  });

  it('finds none where only values differ, nor where a list is empty on one side', () => {
    const emulator = [seen('list', 200, { items: [], next: 'a' })];
    const live = [seen('list', 200, { items: [{ id: 'x' }], next: 'b' })];
    expect(differences(emulator, live)).toEqual([]);
  });

  it('names a step only one side ran', () => {
    expect(differences([seen('watch', 200, {})], [])).toEqual([
      { step: 'watch', path: '(step)', emulator: 'ran', live: null },
    ]);
  });
});
