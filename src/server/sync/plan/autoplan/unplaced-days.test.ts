import { describe, expect, it } from 'vitest';
import type { UnplacedTask } from './slot-planner.ts';
import { describeUnplacedDay, unplacedByDay } from './unplaced-days.ts';

const left = (taskId: string, date: string, minutes: number): UnplacedTask => ({
  taskId,
  date,
  minutes,
  previousBlock: null,
});

describe('tasks that did not fit, per day', () => {
  it('groups by date, earliest first, adding up the minutes', () => {
    const days = unplacedByDay([
      left('a', '2024-05-07', 90),
      left('b', '2024-05-06', 30),
      left('c', '2024-05-07', 60),
    ]);
    expect(days).toEqual([
      { date: '2024-05-06', taskIds: ['b'], minutes: 30 },
      { date: '2024-05-07', taskIds: ['a', 'c'], minutes: 150 },
    ]);
    // 2024-05-06 is a Monday.
    expect(days.map((day) => describeUnplacedDay(day, '2024-05-06'))).toEqual([
      '1 task (30 min) did not fit on Monday',
      '2 tasks (2 h 30) did not fit on Tuesday',
    ]);
    expect(describeUnplacedDay(days[1] as (typeof days)[number], '2024-04-20')).toBe(
      '2 tasks (2 h 30) did not fit on Tue 7 May',
    );
  });
});
