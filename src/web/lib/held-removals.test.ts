import { describe, expect, it } from 'vitest';
import { heldRemovalsTitle } from './held-removals.ts';

const held = (events: number, tasks: number) => ({
  events,
  tasks,
  since: '2026-11-26T10:00:00.000Z',
  choice: null,
});

describe('heldRemovalsTitle', () => {
  it('names what is held, events and tasks, with singular and plural', () => {
    expect(heldRemovalsTitle(held(37, 0))).toBe('Timeboxer held back removing 37 events');
    expect(heldRemovalsTitle(held(0, 1))).toBe('Timeboxer held back deleting or unscheduling 1 task');
    expect(heldRemovalsTitle(held(1, 6))).toBe(
      'Timeboxer held back removing 1 event and deleting or unscheduling 6 tasks',
    );
  });
});
