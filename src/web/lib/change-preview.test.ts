import { describe, expect, it } from 'vitest';
import { NO_CHANGE } from '#shared/api/sync.schema.ts';
import { namedItemsText, changePreviewLines as withNamed } from './change-preview.ts';

const changePreviewLines = (...args: Parameters<typeof withNamed>) =>
  withNamed(...args).map((line) => line.text);

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

  it('names the first items of the lines that have them, not the tasks kept with the removed events', () => {
    const lines = withNamed({ ...none, eventsRemoved: 3, tasksKept: 3, eventsCreated: 1 }, null);
    expect(lines.map((line) => line.named)).toEqual(['eventsRemoved', null, 'eventsCreated']);
  });
});

describe('namedItemsText', () => {
  const review = { title: 'Review PR', when: { kind: 'instant', start: '2026-12-03T09:00:00Z' } } as const;
  const report = { title: 'Report', when: { kind: 'date', date: '2026-12-04' } } as const;
  const standup = { title: 'Standup', when: { kind: 'floating', local: '2026-12-03T10:00' } } as const;

  it('says each by title and time in the user zone, and how many more the count holds', () => {
    expect(namedItemsText([review, report], 2, 'Europe/Berlin', 'en-GB')).toBe(
      'Review PR (Thu 3 Dec, 10:00), Report (Fri 4 Dec)',
    );
    expect(namedItemsText([standup, { title: 'Undated', when: null }], 7, 'UTC', 'en-GB')).toBe(
      'Standup (Thu 3 Dec, 10:00, floating), Undated and 5 more',
    );
    expect(namedItemsText([], 3, 'UTC', 'en-GB')).toBeNull();
  });
});
