import { describe, expect, it } from 'vitest';
import { heldRemovalsTitle, heldSummary } from '#shared/sync/held-removals.ts';
import { removeConsequences, removeQuestion } from './held-removals.ts';

const held = (events: number, tasks: number) => ({
  events,
  tasks,
  since: '2026-11-26T10:00:00.000Z',
  items: [],
  cause: null,
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

describe('removing held items', () => {
  it('asks with the count and says what each side loses', () => {
    expect(removeQuestion(held(6, 0))).toBe('Remove 6 events?');
    expect(removeQuestion(held(1, 2))).toBe('Remove 1 event and 2 tasks?');
    expect(removeConsequences(held(6, 1))).toEqual([
      '6 events are deleted from your calendar. Their tasks stay in Todoist as they are.',
      '1 task is deleted in Todoist, or loses its time and timebox label.',
    ]);
  });
});

describe('heldSummary', () => {
  it('says the counts and the one cause, never a title', () => {
    const label = { kind: 'label-removed', label: '30Minutes', deleted: true } as const;
    expect(heldSummary({ events: 6, tasks: 0, cause: label })).toBe(
      '6 events held back after the label @30Minutes was deleted in Todoist',
    );
    expect(heldSummary({ events: 6, tasks: 0, cause: { ...label, deleted: false } })).toBe(
      '6 events held back after the label @30Minutes came off their tasks in Todoist',
    );
    expect(heldSummary({ events: 0, tasks: 4, cause: { kind: 'events-deleted' } })).toBe(
      '4 tasks held back after their events were deleted in the calendar',
    );
    expect(heldSummary({ events: 1, tasks: 2, cause: null })).toBe('1 event and 2 tasks held back');
  });
});
