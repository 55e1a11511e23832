import { describe, expect, it } from 'vitest';
import { heldCause } from './held-cause.ts';
import type { LinkPlan } from './link-plan.ts';
import { syncLink, taskSnapshot } from './plan.fixture.ts';

/** A held removal of task `taskId`'s event (or, without events, of the task after its event went). */
const removal = (taskId: string, labelsAtSync: string[], removesEvent = true): LinkPlan => ({
  link: syncLink({
    taskId,
    eventId: `e-${taskId}`,
    taskMeta: { labels: labelsAtSync, dueTimezone: null, recurrence: null },
  }),
  events: removesEvent ? [{ action: 'remove', eventId: `e-${taskId}` }] : [],
  task: removesEvent ? null : { action: 'delete', taskId },
  next: null,
  activity: [],
});

describe('heldCause', () => {
  const none = new Set<string>();

  it('names the timebox label that came off every task, and whether Todoist deleted it', () => {
    const held = ['a', 'b', 'c'].map((id) => removal(id, ['30Minutes', 'work']));
    const tasks = ['a', 'b', 'c'].map((id) => taskSnapshot({ id, labels: ['work'] }));
    expect(heldCause(held, tasks, new Set(['30Minutes']))).toEqual({
      kind: 'label-removed',
      label: '30Minutes',
      deleted: true,
    });
    expect(heldCause(held, tasks, none)).toEqual({
      kind: 'label-removed',
      label: '30Minutes',
      deleted: false,
    });
  });

  it('tells deleted tasks, deleted events and tasks out of scope apart', () => {
    const deleted = ['a', 'b'].map((id) => taskSnapshot({ id, labels: ['30Minutes'], isDeleted: true }));
    expect(heldCause([removal('a', ['30Minutes']), removal('b', ['30Minutes'])], deleted, none)).toEqual({
      kind: 'tasks-deleted',
    });
    expect(heldCause([removal('a', ['30Minutes'], false)], [], none)).toEqual({ kind: 'events-deleted' });
    const moved = [taskSnapshot({ id: 'a', labels: ['30Minutes'] })];
    expect(heldCause([removal('a', ['30Minutes'])], moved, none)).toEqual({ kind: 'out-of-scope' });
  });

  it('names no cause when the removals have different ones, or none are held', () => {
    const tasks = [taskSnapshot({ id: 'a', labels: [] }), taskSnapshot({ id: 'b', labels: ['1h'] })];
    expect(heldCause([removal('a', ['30Minutes']), removal('b', ['1h', '2h'])], tasks, none)).toBeNull();
    expect(heldCause([removal('a', ['30Minutes']), removal('c', ['30Minutes'])], tasks, none)).toBeNull();
    expect(heldCause([], tasks, none)).toBeNull();
  });
});
