import { describe, expect, it } from 'vitest';
import { type PlannerTask, planSlots, type SlotPlan, type SlotPlanInput } from './slot-planner.ts';

/** 2024-05-06 is a Monday. */
const MONDAY = '2024-05-06';
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

const input = (overrides: Partial<SlotPlanInput> = {}): SlotPlanInput => ({
  now: new Date(`${MONDAY}T06:00:00Z`),
  timeZone: 'UTC',
  hours: { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', gapMinutes: 0 },
  tasks: [],
  busy: [],
  ...overrides,
});
const task = (id: string, overrides: Partial<PlannerTask> = {}): PlannerTask => ({
  id,
  date: MONDAY,
  minutes: 60,
  priority: 1,
  order: 0,
  ...overrides,
});
/** A UTC interval on `date` from `HH:MM` to `HH:MM`. */
const utc = (from: string, to: string, date = MONDAY) => ({
  start: new Date(`${date}T${from}:00Z`),
  end: new Date(`${date}T${to}:00Z`),
});
const hhmm = (instant: Date) => instant.toISOString().slice(11, 16);
/** Placements as `id HH:MM-HH:MM` (UTC), in start order. */
const times = (plan: SlotPlan) =>
  plan.placements.map((placed) => `${placed.taskId} ${hhmm(placed.start)}-${hhmm(placed.end)}`);
const instants = (plan: SlotPlan) =>
  plan.placements.map(
    (placed) => `${placed.taskId} ${placed.start.toISOString()} ${placed.end.toISOString()}`,
  );

describe('placing tasks', () => {
  it('fills an empty day from the start of working hours, one block after another', () => {
    const plan = planSlots(input({ tasks: [task('a', { order: 1 }), task('b', { order: 2 })] }));
    expect(times(plan)).toEqual(['a 09:00-10:00', 'b 10:00-11:00']);
    expect(plan.placements.every((placed) => placed.change === 'new')).toBe(true);
    expect(plan.unplaced).toEqual([]);
  });

  it('takes the first slot between meetings that is long enough', () => {
    const busy = [utc('09:00', '10:30'), utc('11:00', '12:00')];
    const tasks = [task('short', { minutes: 30, order: 1 }), task('long', { minutes: 45, order: 2 })];
    expect(times(planSlots(input({ busy, tasks })))).toEqual(['short 10:30-11:00', 'long 12:00-12:45']);
  });

  it('keeps the gap after and before meetings and between its own blocks', () => {
    const hours = { days: [1], start: '09:00', end: '17:00', gapMinutes: 10 };
    const busy = [utc('10:00', '11:00')];
    const tasks = [
      task('fits-before', { minutes: 50, order: 1 }),
      task('too-long-for-before', { minutes: 15, order: 2 }),
      task('after', { minutes: 30, order: 3 }),
    ];
    expect(times(planSlots(input({ hours, busy, tasks })))).toEqual([
      'fits-before 09:00-09:50',
      'too-long-for-before 11:10-11:25',
      'after 11:35-12:05',
    ]);
  });

  it('places by Todoist priority (4 is p1) first, then order, then id', () => {
    const tasks = [
      task('low', { priority: 1, order: 0 }),
      task('p1-later', { priority: 4, order: 9 }),
      task('p1-b', { priority: 4, order: 1 }),
      task('p1-a', { priority: 4, order: 1 }),
      task('p2', { priority: 3, order: 0 }),
    ];
    expect(times(planSlots(input({ tasks })))).toEqual([
      'p1-a 09:00-10:00',
      'p1-b 10:00-11:00',
      'p1-later 11:00-12:00',
      'p2 12:00-13:00',
      'low 13:00-14:00',
    ]);
  });

  it('leaves a task that does not fit on its date, and still places smaller ones after it', () => {
    const busy = [utc('12:00', '13:00')];
    const tasks = [
      task('half-day', { minutes: 240, priority: 4 }),
      task('too-big', { minutes: 200, priority: 3 }),
      task('small', { minutes: 60, priority: 2 }),
    ];
    const plan = planSlots(input({ busy, tasks }));
    expect(times(plan)).toEqual(['small 09:00-10:00', 'half-day 13:00-17:00']);
    expect(plan.unplaced).toEqual([{ taskId: 'too-big', date: MONDAY, minutes: 200, previousBlock: null }]);
  });

  it('leaves tasks dated before today alone: neither placed nor reported', () => {
    const plan = planSlots(input({ tasks: [task('overdue', { date: '2024-05-03' }), task('today')] }));
    expect(times(plan)).toEqual(['today 09:00-10:00']);
    expect(plan.unplaced).toEqual([]);
  });

  it('starts today no earlier than now, rounded up to the next 5 minutes', () => {
    const tasks = [task('a', { minutes: 30 })];
    expect(times(planSlots(input({ now: new Date(`${MONDAY}T10:02:30Z`), tasks })))).toEqual([
      'a 10:05-10:35',
    ]);
    expect(times(planSlots(input({ now: new Date(`${MONDAY}T10:00:00Z`), tasks })))).toEqual([
      'a 10:00-10:30',
    ]);
  });

  it('reports today’s tasks once working hours are over, and plans later days from their start', () => {
    const now = new Date(`${MONDAY}T16:40:00Z`);
    const plan = planSlots(input({ now, tasks: [task('today'), task('tomorrow', { date: '2024-05-07' })] }));
    expect(instants(plan)).toEqual(['tomorrow 2024-05-07T09:00:00.000Z 2024-05-07T10:00:00.000Z']);
    expect(plan.unplaced.map((left) => left.taskId)).toEqual(['today']);
  });

  it('does not place on a day that is not a working day', () => {
    const plan = planSlots(input({ tasks: [task('saturday', { date: '2024-05-11' })] }));
    expect(plan.placements).toEqual([]);
    expect(plan.unplaced).toEqual([
      { taskId: 'saturday', date: '2024-05-11', minutes: 60, previousBlock: null },
    ]);
  });

  it('ignores busy times outside working hours and ones that end before they start', () => {
    const busy = [utc('07:00', '09:00'), utc('17:00', '18:00'), utc('10:00', '09:30')];
    expect(times(planSlots(input({ busy, tasks: [task('a', { minutes: 480 })] })))).toEqual([
      'a 09:00-17:00',
    ]);
  });

  it('allows working hours to run until midnight (24:00)', () => {
    const hours = { days: [1], start: '22:00', end: '24:00', gapMinutes: 0 };
    expect(instants(planSlots(input({ hours, tasks: [task('late', { minutes: 120 })] })))).toEqual([
      'late 2024-05-06T22:00:00.000Z 2024-05-07T00:00:00.000Z',
    ]);
  });

  it('does not place a task without a positive length', () => {
    const plan = planSlots(input({ tasks: [task('empty', { minutes: 0 })] }));
    expect(plan.placements).toEqual([]);
    expect(plan.unplaced.map((left) => left.taskId)).toEqual(['empty']);
  });

  it('refuses malformed working hours and dates', () => {
    const hours = { days: [1], start: '17:00', end: '09:00', gapMinutes: 0 };
    expect(() => planSlots(input({ hours }))).toThrow(RangeError);
    expect(() => planSlots(input({ hours: { ...hours, start: '9:00' } }))).toThrow(RangeError);
    expect(() => planSlots(input({ tasks: [task('a', { date: '2024-06-31' })] }))).toThrow(RangeError);
  });
});

describe('working hours in the user’s zone', () => {
  const allDay = { days: EVERY_DAY, start: '00:00', end: '24:00', gapMinutes: 0 };
  const dstInput = (timeZone: string, date: string, overrides: Partial<SlotPlanInput> = {}) =>
    input({ timeZone, now: new Date(`${date.slice(0, 8)}01T00:00:00Z`), hours: allDay, ...overrides });

  it('has 23 hours on the Berlin spring-forward day and 25 on the fall-back day', () => {
    const spring = (minutes: number) =>
      planSlots(
        dstInput('Europe/Berlin', '2024-03-31', { tasks: [task('a', { date: '2024-03-31', minutes })] }),
      );
    expect(instants(spring(23 * 60))).toEqual(['a 2024-03-30T23:00:00.000Z 2024-03-31T22:00:00.000Z']);
    expect(spring(23 * 60 + 5).unplaced.map((left) => left.taskId)).toEqual(['a']);
    const autumn = (minutes: number) =>
      planSlots(
        dstInput('Europe/Berlin', '2024-10-27', { tasks: [task('a', { date: '2024-10-27', minutes })] }),
      );
    expect(instants(autumn(25 * 60))).toEqual(['a 2024-10-26T22:00:00.000Z 2024-10-27T23:00:00.000Z']);
    expect(autumn(25 * 60 + 5).unplaced.map((left) => left.taskId)).toEqual(['a']);
  });

  it('starts Berlin hours that fall in the spring-forward gap at the first instant after the jump', () => {
    // 02:30 does not exist on 2024-03-31: clocks go from 02:00 to 03:00 (CEST, UTC+2).
    const hours = { days: [7], start: '02:30', end: '04:00', gapMinutes: 0 };
    const plan = planSlots(
      dstInput('Europe/Berlin', '2024-03-31', { hours, tasks: [task('a', { date: '2024-03-31' })] }),
    );
    expect(instants(plan)).toEqual(['a 2024-03-31T01:00:00.000Z 2024-03-31T02:00:00.000Z']);
  });

  it('takes the earlier of the two Berlin 02:30s on the fall-back day', () => {
    const hours = { days: [7], start: '02:30', end: '03:00', gapMinutes: 0 };
    const tasks = [task('a', { date: '2024-10-27', minutes: 90 })];
    // 02:30 CEST (00:30Z) to 03:00 CET (02:00Z): the repeated hour counts as working time.
    expect(instants(planSlots(dstInput('Europe/Berlin', '2024-10-27', { hours, tasks })))).toEqual([
      'a 2024-10-27T00:30:00.000Z 2024-10-27T02:00:00.000Z',
    ]);
  });

  it('follows New York’s spring-forward gap and fall-back overlap', () => {
    const springHours = { days: [7], start: '02:00', end: '03:30', gapMinutes: 0 };
    const spring = (minutes: number) =>
      planSlots(
        dstInput('America/New_York', '2024-03-10', {
          hours: springHours,
          tasks: [task('a', { date: '2024-03-10', minutes })],
        }),
      );
    // 02:00 is skipped; work runs from 03:00 EDT (07:00Z) to 03:30 EDT.
    expect(instants(spring(30))).toEqual(['a 2024-03-10T07:00:00.000Z 2024-03-10T07:30:00.000Z']);
    expect(spring(35).unplaced.map((left) => left.taskId)).toEqual(['a']);

    const autumnHours = { days: [7], start: '01:30', end: '02:00', gapMinutes: 0 };
    const autumn = planSlots(
      dstInput('America/New_York', '2024-11-03', {
        hours: autumnHours,
        tasks: [task('a', { date: '2024-11-03', minutes: 90 })],
      }),
    );
    // From the first 01:30 (EDT, 05:30Z) to 02:00 EST (07:00Z).
    expect(instants(autumn)).toEqual(['a 2024-11-03T05:30:00.000Z 2024-11-03T07:00:00.000Z']);
  });

  it('handles a zone with a half-hour offset (Asia/Kolkata, UTC+5:30), including what “today” is', () => {
    const tasks = [task('a', { date: '2024-05-07' })];
    expect(instants(planSlots(input({ timeZone: 'Asia/Kolkata', tasks })))).toEqual([
      'a 2024-05-07T03:30:00.000Z 2024-05-07T04:30:00.000Z',
    ]);
    // 19:00Z on Monday is already 00:30 on Tuesday in Kolkata: Monday's task is in the past there.
    const late = planSlots(
      input({
        timeZone: 'Asia/Kolkata',
        now: new Date(`${MONDAY}T19:00:00Z`),
        tasks: [task('monday'), task('tuesday', { date: '2024-05-07' })],
      }),
    );
    expect(times(late)).toEqual(['tuesday 03:30-04:30']);
    expect(late.unplaced).toEqual([]);
  });
});

describe('re-placing blocks the app placed earlier', () => {
  const now = new Date(`${MONDAY}T08:00:00Z`);
  const block = (taskId: string, from: string, to: string) => ({ taskId, ...utc(from, to) });

  it('keeps a block that still fits exactly where it is, and plans around it', () => {
    const plan = planSlots(input({ now, placed: [block('kept', '09:00', '10:00')], tasks: [task('new')] }));
    expect(plan.placements).toEqual([
      { taskId: 'kept', ...utc('09:00', '10:00'), change: 'kept' },
      { taskId: 'new', ...utc('10:00', '11:00'), change: 'new' },
    ]);
  });

  it('moves a block a new meeting lands on to the next free slot of the same day', () => {
    const placed = [block('early', '09:00', '10:00'), block('hit', '10:00', '11:00')];
    const busy = [utc('10:30', '11:30')];
    const plan = planSlots(input({ now, placed, busy, hours: { ...input().hours, gapMinutes: 5 } }));
    expect(plan.placements).toEqual([
      { taskId: 'early', ...utc('09:00', '10:00'), change: 'kept' },
      { taskId: 'hit', ...utc('11:35', '12:35'), change: 'moved' },
    ]);
  });

  it('moves a block that now sits inside a meeting’s gap', () => {
    const hours = { ...input().hours, gapMinutes: 10 };
    const plan = planSlots(
      input({ now, hours, placed: [block('close', '10:00', '11:00')], busy: [utc('11:05', '11:30')] }),
    );
    expect(times(plan)).toEqual(['close 11:40-12:40']);
  });

  it('never moves a block earlier than it was planned', () => {
    const plan = planSlots(
      input({ now, placed: [block('hit', '13:00', '14:00')], busy: [utc('13:30', '14:00')] }),
    );
    expect(times(plan)).toEqual(['hit 14:00-15:00']);
  });

  it('turns a block with no room left that day back into a task on its date', () => {
    const placed = [block('hit', '15:00', '16:00')];
    const plan = planSlots(input({ now, placed, busy: [utc('15:30', '17:00')], tasks: [task('new')] }));
    expect(times(plan)).toEqual(['new 09:00-10:00']);
    expect(plan.unplaced).toEqual([
      { taskId: 'hit', date: MONDAY, minutes: 60, previousBlock: utc('15:00', '16:00') },
    ]);
  });

  it('never moves a block that has started, even when a meeting overlaps it', () => {
    const started = planSlots(
      input({
        now: new Date(`${MONDAY}T09:30:00Z`),
        placed: [block('running', '09:00', '10:00')],
        busy: [utc('09:45', '10:15')],
      }),
    );
    expect(started.placements).toEqual([{ taskId: 'running', ...utc('09:00', '10:00'), change: 'kept' }]);
  });

  it('places moved blocks before new tasks, and does not place a task twice', () => {
    const plan = planSlots(
      input({
        now,
        placed: [block('hit', '09:00', '10:00')],
        busy: [utc('09:00', '09:30')],
        tasks: [task('hit', { priority: 4 }), task('new', { priority: 4 })],
      }),
    );
    expect(times(plan)).toEqual(['hit 09:30-10:30', 'new 10:30-11:30']);
  });

  it('moves a block the working hours no longer hold into them, earlier too', () => {
    const hours = { ...input().hours, start: '12:00', end: '14:00' };
    const placed = [block('late', '15:00', '16:00'), block('early', '09:00', '10:00')];
    const plan = planSlots(input({ now, hours, placed, busy: [utc('12:00', '12:30')] }));
    expect(plan.placements).toEqual([{ taskId: 'early', ...utc('12:30', '13:30'), change: 'moved' }]);
    expect(plan.unplaced).toEqual([
      { taskId: 'late', date: MONDAY, minutes: 60, previousBlock: utc('15:00', '16:00') },
    ]);
    // A day that is no longer a working day gives its blocks their dates back.
    const weekend = planSlots(input({ now, hours: { ...input().hours, days: [6, 7] }, placed }));
    expect(weekend.placements).toEqual([]);
    expect(weekend.unplaced.map((left) => left.taskId)).toEqual(['early', 'late']);
  });

  it('moves the later of two placed blocks that overlap each other', () => {
    const plan = planSlots(
      input({ now, placed: [block('b', '09:30', '10:30'), block('a', '09:00', '10:00')] }),
    );
    expect(plan.placements.map((placed) => [placed.taskId, placed.change])).toEqual([
      ['a', 'kept'],
      ['b', 'moved'],
    ]);
    expect(times(plan)).toEqual(['a 09:00-10:00', 'b 10:00-11:00']);
  });
});
