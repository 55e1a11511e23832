import { describe, expect, it } from 'vitest';
import { NO_CHANGE } from '#shared/api/sync.schema.ts';
import { changePreviewLines } from './change-preview.ts';

const none = NO_CHANGE;

describe('changePreviewLines', () => {
  it('says what a removed timebox does: events removed, tasks kept', () => {
    expect(changePreviewLines({ ...none, eventsRemoved: 3, tasksKept: 3 }, null)).toEqual([
      '3 events will be removed.',
      'Their 3 tasks keep their dates and times in Todoist.',
    ]);
    expect(changePreviewLines({ ...none, eventsRemoved: 1, tasksKept: 1 }, null)).toEqual([
      '1 event will be removed.',
      'Its task keeps its date and time in Todoist.',
    ]);
  });

  it('says where events move, and what becomes a task', () => {
    expect(changePreviewLines({ ...none, eventsMoved: 12, tasksCreated: 1 }, 'Work')).toEqual([
      '12 events will move to Work; none is left behind.',
      '1 event will become a task.',
    ]);
  });

  it('says when nothing synced changes', () => {
    expect(changePreviewLines(none, 'Work')).toEqual(['Nothing already synced changes.']);
  });
});
