import { describe, expect, it } from 'vitest';
import { dayHeading, previewDays, timeRange } from './autoplan-preview.ts';

describe('times in the user’s zone', () => {
  it('writes an instant’s time in the zone, as the browser’s locale writes times', () => {
    expect(timeRange('2026-12-03T09:00:00Z', '2026-12-03T09:30:00Z', 'Europe/Berlin', 'en-GB')).toBe(
      '10:00–10:30',
    );
    expect(timeRange('2026-12-03T09:00:00Z', '2026-12-03T09:30:00Z', 'America/New_York', 'en-GB')).toBe(
      '04:00–04:30',
    );
    expect(timeRange('2026-12-03T00:05:00Z', '2026-12-03T13:00:00Z', 'UTC', 'en-US')).toBe(
      '12:05 AM–1:00 PM',
    );
  });

  it('heads a day with its weekday and date', () => {
    expect(dayHeading('2026-12-03')).toBe('Thursday 3 Dec');
    expect(dayHeading('someday')).toBe('someday');
  });
});

describe('previewDays', () => {
  const today = '2026-11-30'; // a Monday

  it('groups the placements by their day in the zone, by start, then what did not fit', () => {
    const days = previewDays(
      {
        placements: [
          { taskId: 'b', title: 'Review', start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' },
          { taskId: 'a', title: 'Report', start: '2026-12-01T09:00:00Z', end: '2026-12-01T09:30:00Z' },
          // 23:30 UTC on Monday is Tuesday in Berlin.
          { taskId: 'c', title: 'Late call', start: '2026-11-30T23:30:00Z', end: '2026-12-01T00:00:00Z' },
          { taskId: 'd', title: ' ', start: '2026-12-03T08:00:00Z', end: '2026-12-03T08:15:00Z' },
        ],
        unplaced: [
          {
            date: '2026-12-03',
            minutes: 90,
            tasks: [
              { taskId: 'e', title: 'Taxes' },
              { taskId: 'f', title: 'Slides' },
            ],
          },
          { date: '2026-12-02', minutes: 30, tasks: [{ taskId: 'g', title: 'Call Bob' }] },
        ],
      },
      'Europe/Berlin',
      today,
      'en-GB',
    );
    expect(days).toEqual([
      {
        date: '2026-12-01',
        heading: 'Tuesday 1 Dec',
        placements: [
          { taskId: 'c', time: '00:30–01:00', title: 'Late call' },
          { taskId: 'a', time: '10:00–10:30', title: 'Report' },
          { taskId: 'b', time: '11:00–11:30', title: 'Review' },
        ],
        unplaced: null,
      },
      {
        date: '2026-12-02',
        heading: 'Wednesday 2 Dec',
        placements: [],
        unplaced: {
          text: '1 task (30 min) did not fit on Wednesday',
          tasks: [{ taskId: 'g', title: 'Call Bob' }],
        },
      },
      {
        date: '2026-12-03',
        heading: 'Thursday 3 Dec',
        placements: [{ taskId: 'd', time: '09:00–09:15', title: '(no title)' }],
        unplaced: {
          text: '2 tasks (1 h 30) did not fit on Thursday',
          tasks: [
            { taskId: 'e', title: 'Taxes' },
            { taskId: 'f', title: 'Slides' },
          ],
        },
      },
    ]);
  });

  it('has no day when nothing waits', () => {
    expect(previewDays({ placements: [], unplaced: [] }, 'UTC', today, 'en-GB')).toEqual([]);
  });
});
