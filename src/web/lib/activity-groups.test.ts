import { describe, expect, it } from 'vitest';
import type { ActivityNames } from '#shared/api/activity-names.schema.ts';
import type { SyncActivityEntry } from '#shared/api/sync.schema.ts';
import { detailWords, groupHeadline, groupRuns, idsText, namedItem } from './activity-groups.ts';

const RUN = '2026-12-02T09:00:00.000Z';
let next = 0;
const entry = (fields: Partial<SyncActivityEntry>): SyncActivityEntry => {
  next += 1;
  return {
    id: `e${next}`,
    at: RUN,
    direction: 'todoist-to-calendar',
    action: 'created',
    taskId: `t${next}`,
    eventId: `v${next}`,
    detail: null,
    ...fields,
  };
};

describe('groupRuns', () => {
  it('puts a run’s entries of one kind on one line, and keeps other kinds and runs apart', () => {
    const entries = [
      entry({}),
      entry({}),
      entry({}),
      entry({ action: 'updated', detail: 'title' }),
      entry({ action: 'updated', detail: 'time' }),
      entry({ direction: 'calendar-to-todoist' }),
      entry({ at: '2026-12-02T08:59:00.000Z' }),
    ];
    const groups = groupRuns(entries);
    expect(groups.map((group) => group.entries.length)).toEqual([3, 1, 1, 1, 1]);
    expect(groups.map(groupHeadline)).toEqual([
      'Created 3 events',
      'Updated 1 event',
      'Updated 1 event',
      'Created 1 task',
      'Created 1 event',
    ]);
  });
});

describe('the words', () => {
  it('says what each action did to which side', () => {
    const headline = (fields: Partial<SyncActivityEntry>, n = 2) =>
      groupHeadline({ ...entry(fields), entries: Array.from({ length: n }, () => entry(fields)) });
    expect(headline({ action: 'deleted' })).toBe('Removed 2 events');
    expect(headline({ action: 'deleted', direction: 'calendar-to-todoist' })).toBe('Deleted 2 tasks');
    expect(headline({ action: 'completed', direction: 'calendar-to-todoist' }, 1)).toBe('Completed 1 task');
    expect(headline({ action: 'held' }, 6)).toBe('Held back removing 6 events');
    expect(headline({ action: 'kept' }, 1)).toBe('Stopped syncing 1 task and its event, both kept');
  });

  it('reads field changes as a list and reasons as a phrase', () => {
    expect(detailWords('title,time,length')).toBe('title, time and length');
    expect(detailWords('time')).toBe('time');
    expect(detailWords('released')).toBe('you chose Remove');
    expect(detailWords('some-new-code')).toBe('some new code');
    expect(detailWords(null)).toBeNull();
  });
});

describe('namedItem', () => {
  const names: ActivityNames = {
    tasks: {
      t1: { title: 'Review PR', when: { kind: 'floating', local: '2026-12-03T10:00' } },
      gone: null,
    },
    events: {
      v1: { title: 'Review PR', when: { kind: 'instant', start: '2026-12-03T09:00:00.000Z' } },
      v2: { title: '✓ Standup', when: { kind: 'instant', start: '2026-12-03T08:00:00.000Z' } },
      v3: null,
    },
    unavailable: [],
  };

  it('names an entry by its task, else its event (without the done mark)', () => {
    expect(namedItem({ taskId: 't1', eventId: 'v1', action: 'created' }, names)).toEqual({
      title: 'Review PR',
      gone: false,
      when: { kind: 'floating', local: '2026-12-03T10:00' },
    });
    expect(namedItem({ taskId: 'gone', eventId: 'v2', action: 'completed' }, names).title).toBe('Standup');
  });

  it('says an item is gone, and knows nothing while names are not there', () => {
    expect(namedItem({ taskId: 'gone', eventId: null, action: 'deleted' }, names).title).toBe(
      'a deleted task',
    );
    expect(namedItem({ taskId: 'gone', eventId: null, action: 'completed' }, names).title).toBe(
      'a completed task',
    );
    expect(namedItem({ taskId: null, eventId: 'v3', action: 'created' }, names).title).toBe(
      'a deleted event',
    );
    expect(namedItem({ taskId: 't9', eventId: 'v9', action: 'created' }, names).title).toBeNull();
    expect(namedItem({ taskId: 't1', eventId: 'v1', action: 'created' }, undefined).title).toBeNull();
  });

  it('keeps the ids for support', () => {
    expect(idsText({ taskId: '6QaAhnJS', eventId: null })).toBe('Todoist task 6QaAhnJS');
    expect(idsText({ taskId: 'a', eventId: 'b' })).toBe('Todoist task a, calendar event b');
  });
});
