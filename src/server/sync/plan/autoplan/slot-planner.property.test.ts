import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Interval,
  type Placement,
  type PlannerTask,
  planSlots,
  type SlotPlan,
  type SlotPlanInput,
} from './slot-planner.ts';
import { oracleDate, oracleWallClockInstant, oracleWeekday } from './wall-clock-oracle.fixture.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'];
/** Moments near the daylight-saving changes of those zones, and an ordinary one. */
const BASE_NOWS = [
  '2024-03-09T12:00:00Z',
  '2024-03-30T12:00:00Z',
  '2024-10-05T12:00:00Z',
  '2024-10-26T12:00:00Z',
  '2024-11-02T12:00:00Z',
  '2024-07-01T12:00:00Z',
].map(Date.parse);

/** A random planning run: times are drawn around `now`, dates around the user's today. */
const planInput: fc.Arbitrary<SlotPlanInput> = fc
  .record({
    timeZone: fc.constantFrom(...ZONES),
    nowMs: fc
      .tuple(fc.constantFrom(...BASE_NOWS), fc.integer({ min: -2 * DAY, max: 2 * DAY }))
      .map(([base, shift]) => base + shift),
    hours: fc.record({
      days: fc.subarray([1, 2, 3, 4, 5, 6, 7], { minLength: 1 }),
      // Often in the small hours, where clocks change; times on 5 minutes, as the oracle scans.
      bounds: fc.oneof(
        fc.constant([8 * 60, 18 * 60] as const),
        fc
          .tuple(
            fc.oneof(fc.integer({ min: 0, max: 48 }), fc.integer({ min: 0, max: 288 })),
            fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 288 })),
          )
          .filter(([a, b]) => a !== b)
          .map(([a, b]) => [Math.min(a, b) * 5, Math.max(a, b) * 5] as const),
      ),
      gapMinutes: fc.integer({ min: 0, max: 30 }),
    }),
    tasks: fc.uniqueArray(
      fc.record({
        id: fc.integer({ min: 0, max: 40 }).map((n) => `t${n}`),
        dayShift: fc.integer({ min: -2, max: 4 }),
        minutes: fc.oneof(fc.integer({ min: 5, max: 120 }), fc.integer({ min: 1, max: 600 })),
        priority: fc.integer({ min: 1, max: 4 }),
        order: fc.integer({ min: 0, max: 5 }),
      }),
      { selector: (task) => task.id, maxLength: 14 },
    ),
    busy: fc.array(spanAroundNow(-2 * DAY, 5 * DAY, 1, 300), { maxLength: 12 }),
    placed: fc.array(spanAroundNow(-DAY, 4 * DAY, 5, 120), { maxLength: 6 }),
    /** Meetings landing on or near the placed blocks: (which block, minutes from its start, length). */
    landings: fc.array(
      fc.tuple(fc.nat(), fc.integer({ min: -90, max: 90 }), fc.integer({ min: 5, max: 90 })),
      { maxLength: 4 },
    ),
  })
  .map(({ timeZone, nowMs, hours, tasks, busy, placed, landings }) => {
    const today = oracleDate(nowMs, timeZone);
    const toInterval = ({ offset, length }: { offset: number; length: number }): Interval => ({
      start: new Date(nowMs + offset),
      end: new Date(nowMs + offset + length),
    });
    const blocks = nonOverlapping(placed.map(toInterval));
    const landed =
      blocks.length === 0
        ? []
        : landings.map(([which, offset, length]) => {
            const block = blocks[which % blocks.length] as Interval;
            const start = block.start.getTime() + offset * MINUTE;
            return { start: new Date(start), end: new Date(start + length * MINUTE) };
          });
    return {
      now: new Date(nowMs),
      timeZone,
      hours: {
        days: hours.days,
        start: hhmm(hours.bounds[0]),
        end: hhmm(hours.bounds[1]),
        gapMinutes: hours.gapMinutes,
      },
      tasks: tasks.map(({ dayShift, ...task }) => ({ ...task, date: shiftDate(today, dayShift) })),
      busy: [...busy.map(toInterval), ...landed],
      placed: blocks.map((block, n) => ({ taskId: `b${n}`, ...block })),
    };
  });

function spanAroundNow(fromMs: number, untilMs: number, minMinutes: number, maxMinutes: number) {
  return fc.record({
    offset: fc.integer({ min: fromMs / MINUTE, max: untilMs / MINUTE }).map((minutes) => minutes * MINUTE),
    length: fc.integer({ min: minMinutes, max: maxMinutes }).map((minutes) => minutes * MINUTE),
  });
}

/**
 * The app left its blocks apart, at least the largest gap: drop any closer. (Blocks too close to
 * each other are an example in slot-planner.test.ts.)
 */
function nonOverlapping(blocks: Interval[]): Interval[] {
  const kept: Interval[] = [];
  for (const block of [...blocks].sort((a, b) => a.start.getTime() - b.start.getTime())) {
    const last = kept.at(-1);
    if (!last || last.end.getTime() + 30 * MINUTE <= block.start.getTime()) kept.push(block);
  }
  return kept;
}

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const shiftDate = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const minuteOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const ms = (interval: Interval) => ({ start: interval.start.getTime(), end: interval.end.getTime() });

/** Whether two intervals overlap or come closer than `gap` milliseconds. */
const tooClose = (a: Interval, b: Interval, gap: number) =>
  ms(a).start < ms(b).end + gap && ms(b).start - gap < ms(a).end;

/** Placements the planner chose this run (not blocks it left where they were). */
const chosen = (plan: SlotPlan) => plan.placements.filter((placed) => placed.change !== 'kept');

/** The date whose working hours a chosen placement must lie in: the task's date, or the old block's. */
function dateOf(placement: Placement, input: SlotPlanInput): string {
  const block = input.placed?.find((placed) => placed.taskId === placement.taskId);
  if (block) return oracleDate(block.start.getTime(), input.timeZone);
  const task = input.tasks.find((candidate) => candidate.id === placement.taskId);
  if (!task) throw new Error(`placement for an unknown task ${placement.taskId}`);
  return task.date;
}

function workingHoursOf(date: string, input: SlotPlanInput) {
  return {
    start: oracleWallClockInstant(date, minuteOf(input.hours.start), input.timeZone),
    end: oracleWallClockInstant(date, minuteOf(input.hours.end), input.timeZone),
  };
}

/** The block lies inside the working hours of its own day (else it moves, as hours that changed). */
function inHours(block: Interval, input: SlotPlanInput): boolean {
  const date = oracleDate(block.start.getTime(), input.timeZone);
  const hours = workingHoursOf(date, input);
  return (
    input.hours.days.includes(oracleWeekday(date)) &&
    hours.end > hours.start &&
    ms(block).start >= hours.start &&
    ms(block).end <= hours.end
  );
}

const isPast = (task: PlannerTask, input: SlotPlanInput) =>
  task.date < oracleDate(input.now.getTime(), input.timeZone);

type RoomSearch = {
  from: number;
  /** Only starts before this count (Infinity: any). */
  startsBefore: number;
  until: number;
  duration: number;
  taken: Interval[];
  gap: number;
};

/**
 * Whether a block of `duration` could start in [from, startsBefore) and end by `until`, clear of every
 * taken interval by `gap`. The earliest such start is `from` or the end of an interval plus the gap,
 * so only those need trying.
 */
function roomExists({ from, startsBefore, until, duration, taken, gap }: RoomSearch): boolean {
  const candidates = [from, ...taken.map((interval) => ms(interval).end + gap)].filter(
    (start) => start >= from && start < startsBefore && start + duration <= until,
  );
  return candidates.some(
    (start) =>
      !taken.some((interval) =>
        tooClose({ start: new Date(start), end: new Date(start + duration) }, interval, gap),
      ),
  );
}

const property = (check: (input: SlotPlanInput, plan: SlotPlan) => void) => () =>
  fc.assert(
    fc.property(planInput, (input) => check(input, planSlots(input))),
    { numRuns: 300 },
  );

describe('slot planner properties', () => {
  it(
    'never lets two blocks overlap, and keeps the gap around every block it chose',
    property((input, plan) => {
      const gap = input.hours.gapMinutes * MINUTE;
      plan.placements.forEach((a, i) => {
        for (const b of plan.placements.slice(i + 1)) {
          const either = a.change !== 'kept' || b.change !== 'kept';
          expect(tooClose(a, b, either ? gap : 0), `${a.taskId} and ${b.taskId}`).toBe(false);
        }
      });
    }),
  );

  it(
    'keeps every block it chose clear of busy times, gap included',
    property((input, plan) => {
      const gap = input.hours.gapMinutes * MINUTE;
      for (const placed of chosen(plan)) {
        for (const busy of input.busy) {
          if (busy.end > busy.start) expect(tooClose(placed, busy, gap)).toBe(false);
        }
      }
    }),
  );

  it(
    'puts every block it chose inside the working hours of its date, on a working day, not before now',
    property((input, plan) => {
      const earliest = Math.ceil(input.now.getTime() / (5 * MINUTE)) * 5 * MINUTE;
      for (const placed of chosen(plan)) {
        const date = dateOf(placed, input);
        const hours = workingHoursOf(date, input);
        expect(input.hours.days).toContain(oracleWeekday(date));
        expect(placed.start.getTime()).toBeGreaterThanOrEqual(Math.max(hours.start, earliest));
        expect(placed.end.getTime()).toBeLessThanOrEqual(hours.end);
        expect(oracleDate(placed.start.getTime(), input.timeZone)).toBe(date);
      }
    }),
  );

  it(
    'places each task at most once, and accounts for every task: placed, unplaced or in the past',
    property((input, plan) => {
      const placedIds = plan.placements.map((placed) => placed.taskId);
      const unplacedIds = plan.unplaced.map((left) => left.taskId);
      const everyId = [...placedIds, ...unplacedIds];
      expect(new Set(everyId).size).toBe(everyId.length);
      for (const task of input.tasks) {
        expect(everyId.includes(task.id), task.id).toBe(!isPast(task, input));
      }
      for (const block of input.placed ?? []) expect(everyId).toContain(block.taskId);
      expect(everyId.length).toBe(
        input.tasks.filter((task) => !isPast(task, input)).length + (input.placed?.length ?? 0),
      );
    }),
  );

  it(
    'gives the same plan for the same input, in whatever order the lists come',
    property((input, plan) => {
      expect(planSlots(input)).toEqual(plan);
      const reversed = {
        ...input,
        tasks: [...input.tasks].reverse(),
        busy: [...input.busy].reverse(),
        placed: [...(input.placed ?? [])].reverse(),
      };
      expect(planSlots(reversed)).toEqual(plan);
    }),
  );

  it(
    'leaves kept blocks unchanged, keeps every started block, and moves only blocks that no longer fit',
    property((input, plan) => {
      const gap = input.hours.gapMinutes * MINUTE;
      for (const block of input.placed ?? []) {
        const result = plan.placements.find((placed) => placed.taskId === block.taskId);
        const started = block.start <= input.now;
        const hit = input.busy.some((busy) => busy.end > busy.start && tooClose(block, busy, gap));
        const outside = !inHours(block, input);
        if (started || (!hit && !outside)) {
          expect(result).toEqual({ ...block, change: 'kept' } satisfies Placement);
        } else if (result) {
          expect(result.change).toBe('moved');
          // Outside the hours it may move earlier, into them; else only later.
          if (!outside) expect(result.start.getTime()).toBeGreaterThanOrEqual(block.start.getTime());
          expect(ms(result).end - ms(result).start).toBe(ms(block).end - ms(block).start);
        }
      }
    }),
  );

  it(
    'leaves a task unplaced only when its day has no room left for it',
    property((input, plan) => {
      const gap = input.hours.gapMinutes * MINUTE;
      const taken = [...input.busy.filter((busy) => busy.end > busy.start), ...plan.placements];
      const earliest = Math.ceil(input.now.getTime() / (5 * MINUTE)) * 5 * MINUTE;
      for (const left of plan.unplaced) {
        if (!input.hours.days.includes(oracleWeekday(left.date)) || left.minutes <= 0) continue;
        const hours = workingHoursOf(left.date, input);
        const previous = left.previousBlock;
        const notBefore = previous && inHours(previous, input) ? previous.start.getTime() : 0;
        const from = Math.max(hours.start, earliest, notBefore);
        const search = { from, startsBefore: Number.POSITIVE_INFINITY, until: hours.end, taken, gap };
        expect(roomExists({ ...search, duration: left.minutes * MINUTE }), left.taskId).toBe(false);
      }
    }),
  );

  it(
    'gives each new task the earliest slot left by the blocks and the tasks planned before it',
    property((input, plan) => {
      const gap = input.hours.gapMinutes * MINUTE;
      const earliest = Math.ceil(input.now.getTime() / (5 * MINUTE)) * 5 * MINUTE;
      const ahead = (a: PlannerTask, b: PlannerTask) =>
        b.priority - a.priority || a.order - b.order || (a.id < b.id ? -1 : 1);
      const taskById = new Map(input.tasks.map((task) => [task.id, task]));
      for (const placed of plan.placements.filter((candidate) => candidate.change === 'new')) {
        const task = taskById.get(placed.taskId) as PlannerTask;
        const before = plan.placements.filter((other) => {
          const otherTask = taskById.get(other.taskId);
          return other.change !== 'new' || (otherTask !== undefined && ahead(otherTask, task) < 0);
        });
        const taken = [...input.busy.filter((busy) => busy.end > busy.start), ...before];
        const hours = workingHoursOf(task.date, input);
        const from = Math.max(hours.start, earliest);
        const search = { from, startsBefore: placed.start.getTime(), until: hours.end, taken, gap };
        expect(roomExists({ ...search, duration: task.minutes * MINUTE }), task.id).toBe(false);
      }
    }),
  );
});
