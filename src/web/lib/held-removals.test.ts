import { describe, expect, it } from 'vitest';
import { heldRemovalsTitle, heldSummary } from '#shared/sync/held-removals.ts';
import {
  decisionWaits,
  type HeldRemovalItem,
  type HeldRemovals,
  removeConsequences,
  removeItemConsequence,
  removeItemQuestion,
  removeQuestion,
  stillHeld,
} from './held-removals.ts';

const held = (events: number, tasks: number, items: HeldRemovalItem[] = []): HeldRemovals => ({
  events,
  tasks,
  since: '2026-11-26T10:00:00.000Z',
  items,
  cause: null,
  choice: null,
});
const item = (n: number, removes: 'event' | 'task', choice: 'remove' | 'keep' | null): HeldRemovalItem => ({
  taskId: `task-${n}`,
  eventId: `event-${n}`,
  removes,
  choice,
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

describe('choosing for single items', () => {
  it('counts what is still held without a choice, for the confirmation of all at once', () => {
    const items = [
      item(1, 'event', 'keep'),
      item(2, 'event', 'remove'),
      item(3, 'task', 'keep'),
      item(4, 'event', null),
    ];
    expect(stillHeld(held(5, 2, items))).toEqual({ events: 3, tasks: 1 });
    expect(removeQuestion(stillHeld(held(5, 2, items)))).toBe('Remove 3 events and 1 task?');
    expect(removeQuestion(stillHeld(held(3, 0, items.slice(0, 2))))).toBe('Remove 1 event?');
  });

  it('waits for the user while anything is held without a choice', () => {
    expect(decisionWaits(null)).toBe(false);
    expect(decisionWaits(held(2, 0, [item(1, 'event', 'keep'), item(2, 'event', null)]))).toBe(true);
    expect(decisionWaits(held(2, 0, [item(1, 'event', 'keep'), item(2, 'event', 'remove')]))).toBe(false);
    expect(decisionWaits({ ...held(6, 0), choice: 'remove' })).toBe(false);
  });

  it('asks before removing one item, by its name, and says what goes', () => {
    expect(removeItemQuestion('Review PR')).toBe('Remove “Review PR”?');
    expect(removeItemConsequence({ removes: 'event' })).toBe(
      'Its event is deleted from your calendar. The task stays in Todoist as it is.',
    );
    expect(removeItemConsequence({ removes: 'task' })).toBe(
      'The task is deleted in Todoist, or loses its time and timebox label.',
    );
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
