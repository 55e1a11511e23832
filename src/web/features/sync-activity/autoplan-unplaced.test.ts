import { describe, expect, it } from 'vitest';
import { autoplanUnplacedLines } from './autoplan-unplaced.ts';

describe('autoplanUnplacedLines', () => {
  const today = '2026-11-30'; // a Monday

  it('says nothing when everything fitted', () => {
    expect(autoplanUnplacedLines([], today)).toEqual([]);
  });

  it('gives one line per day, earliest first, the coming week by weekday', () => {
    expect(
      autoplanUnplacedLines(
        [
          { date: '2026-12-08', tasks: 1, minutes: 45 },
          { date: '2026-12-03', tasks: 2, minutes: 90 },
          { date: '2026-11-30', tasks: 3, minutes: 120 },
        ],
        today,
      ),
    ).toEqual([
      'Plan my day: 3 tasks (2 h) did not fit on Monday.',
      'Plan my day: 2 tasks (1 h 30) did not fit on Thursday.',
      'Plan my day: 1 task (45 min) did not fit on Tue 8 Dec.',
    ]);
  });
});
