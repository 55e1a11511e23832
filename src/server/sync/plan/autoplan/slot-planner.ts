/**
 * The slot planner behind "Plan my day": where on the calendar each date-only timeboxed task goes.
 * Pure: no I/O, and the current time is the `now` it is given.
 *
 * Rules
 * - Working hours are wall-clock times in the user's (Todoist) zone, on the ISO weekdays listed. On a
 *   daylight-saving day they follow the wall clock: the day has 23 or 25 hours, a time skipped by
 *   spring-forward means the first instant after the jump, a time repeated by fall-back the earlier
 *   instant (see working-window.ts).
 * - Tasks are placed one by one in Todoist priority order (priority 4, shown as p1, first), then by
 *   `order`, then by id, so the same input always gives the same plan. Each task takes the earliest
 *   free slot of its own date inside working hours that is at least `minutes` long.
 * - Every placed or moved block keeps `gapMinutes` free before and after it, from busy times and
 *   from other blocks (not from the edges of working hours).
 * - For today, nothing starts before `now` rounded up to the next 5 minutes.
 * - A task whose date is before today (in the user's zone) is left alone: neither placed nor
 *   reported. A task on a day that is not a working day, or that does not fit, or whose `minutes` is
 *   not positive, keeps its date and is reported in `unplaced`.
 *
 * What may move. `busy` holds everything the planner must not touch: meetings (the caller has
 * dropped free/transparent and all-day events) and every timed block the user set or moved. `placed`
 * holds only blocks this planner placed earlier that nobody has touched since; only those may be
 * moved. Taking them in start order:
 * - a block that has started (start ≤ now) stays, even if a meeting now overlaps it;
 * - a block that still fits (no overlap with busy times or the blocks kept before it, gap
 *   included) stays exactly where it is;
 * - a block that no longer lies inside its day's working hours (they changed, or the day is no
 *   longer a working day) moves to the earliest free slot of that day inside them;
 * - any other block moves to the next free slot of the same day, at or after its old start (never
 *   earlier than planned) and inside working hours, with the same length;
 * - a block to move that finds no slot becomes unplaced and its task goes back to its date.
 * Kept blocks count as busy for everything else; blocks to move are placed before new tasks (they
 * were already promised a time). A task id present in `placed` is not placed again from `tasks`;
 * duplicate ids count once (the first in planning order).
 *
 * Malformed input (a date that is not `YYYY-MM-DD`, working hours that end before they start) throws
 * a RangeError: the settings and the Todoist reader validate it before this point.
 */

import { collides, firstFreeStart, type Span } from './free-slot.ts';
import {
  type Interval,
  localDateOf,
  MINUTE_MS,
  type ParsedHours,
  parseDate,
  parseWorkingHours,
  type WorkingHours,
  workingWindow,
} from './working-window.ts';

export type { Interval, WorkingHours } from './working-window.ts';

/** A date-only timeboxed task waiting for a time. */
export type PlannerTask = {
  id: string;
  /** The task's due date in the user's zone, `YYYY-MM-DD`. */
  date: string;
  /** Length of the block to place. */
  minutes: number;
  /** Todoist's API priority: 4 is the highest (shown as p1), 1 the lowest. */
  priority: number;
  /** Todoist's order of the task in its list; lower goes first among equal priorities. */
  order: number;
};

/** A block the app placed earlier and nobody has changed since: the planner may move it. */
export type PlacedBlock = { taskId: string; start: Date; end: Date };

export type SlotPlanInput = {
  now: Date;
  /** IANA zone of the Todoist user. */
  timeZone: string;
  hours: WorkingHours;
  tasks: readonly PlannerTask[];
  /** Times that are taken and stay where they are (see the top of this file). */
  busy: readonly Interval[];
  placed?: readonly PlacedBlock[];
};

/** `new`: a task got a time; `kept`: a placed block stays as it was; `moved`: a placed block moved. */
export type PlacementChange = 'new' | 'kept' | 'moved';

export type Placement = { taskId: string; start: Date; end: Date; change: PlacementChange };

export type UnplacedTask = {
  taskId: string;
  /** The date the task keeps, in the user's zone. */
  date: string;
  minutes: number;
  /** The block the task had when it was a placed block that no longer fits; null for a new task. */
  previousBlock: Interval | null;
};

export type SlotPlan = {
  /** Sorted by start, then task id. */
  placements: Placement[];
  /** In planning order: moved blocks first, then tasks by priority. */
  unplaced: UnplacedTask[];
};

const FIVE_MINUTES_MS = 5 * MINUTE_MS;

/** What every placement needs to know about the run. */
type Planning = {
  nowMs: number;
  /** `now` rounded up to the next 5 minutes: nothing new starts earlier. */
  earliestStartMs: number;
  today: string;
  timeZone: string;
  hours: ParsedHours;
  /** Busy times plus the blocks placed or kept so far in this run; grows as the run goes. */
  occupied: Span[];
};

export function planSlots(input: SlotPlanInput): SlotPlan {
  const nowMs = input.now.getTime();
  const planning: Planning = {
    nowMs,
    earliestStartMs: Math.ceil(nowMs / FIVE_MINUTES_MS) * FIVE_MINUTES_MS,
    today: localDateOf(input.now, input.timeZone),
    timeZone: input.timeZone,
    hours: parseWorkingHours(input.hours),
    occupied: input.busy.map(toSpan).filter((span) => span.end > span.start),
  };
  const blocks = settlePlacedBlocks(input.placed ?? [], planning);
  const blockTaskIds = new Set((input.placed ?? []).map((block) => block.taskId));
  const tasks = placeTasks(
    input.tasks.filter((task) => !blockTaskIds.has(task.id)),
    planning,
  );
  const placements = [...blocks.placements, ...tasks.placements].sort(
    (a, b) => a.start.getTime() - b.start.getTime() || compareText(a.taskId, b.taskId),
  );
  return { placements, unplaced: [...blocks.unplaced, ...tasks.unplaced] };
}

/** Keeps the placed blocks that may stay, then moves the others (see the top of this file). */
function settlePlacedBlocks(placed: readonly PlacedBlock[], planning: Planning): SlotPlan {
  const byStart = uniqueBy(
    [...placed].sort((a, b) => a.start.getTime() - b.start.getTime() || compareText(a.taskId, b.taskId)),
    (block) => block.taskId,
  );
  const placements: Placement[] = [];
  const toMove: { block: PlacedBlock; inHours: boolean }[] = [];
  for (const block of byStart) {
    const span = toSpan(block);
    const started = span.start <= planning.nowMs;
    const inHours = insideHours(block, planning);
    if (started || (inHours && !collides(span, planning.occupied, planning.hours.gapMs))) {
      planning.occupied.push(span);
      placements.push({ taskId: block.taskId, start: block.start, end: block.end, change: 'kept' });
    } else {
      toMove.push({ block, inHours });
    }
  }
  const unplaced: UnplacedTask[] = [];
  for (const { block, inHours } of toMove) {
    const moved = moveBlock(block, inHours, planning);
    if ('change' in moved) placements.push(moved);
    else unplaced.push(moved);
  }
  return { placements, unplaced };
}

/** The block lies inside the working hours of its day (the hours it was placed in may have changed since). */
function insideHours(block: PlacedBlock, planning: Planning): boolean {
  const window = workingWindow(
    localDateOf(block.start, planning.timeZone),
    planning.hours,
    planning.timeZone,
  );
  return (
    window !== null &&
    block.start.getTime() >= window.start.getTime() &&
    block.end.getTime() <= window.end.getTime()
  );
}

/** A block inside the hours moves on to a later time; one outside them to the earliest time inside. */
function moveBlock(block: PlacedBlock, inHours: boolean, planning: Planning): Placement | UnplacedTask {
  const date = localDateOf(block.start, planning.timeZone);
  const durationMs = block.end.getTime() - block.start.getTime();
  const notBefore = inHours ? block.start.getTime() : Number.NEGATIVE_INFINITY;
  const span = findSlot(date, durationMs, notBefore, planning);
  if (span) return { taskId: block.taskId, ...toInterval(span), change: 'moved' };
  return {
    taskId: block.taskId,
    date,
    minutes: Math.round(durationMs / MINUTE_MS),
    previousBlock: { start: block.start, end: block.end },
  };
}

function placeTasks(tasks: readonly PlannerTask[], planning: Planning): SlotPlan {
  const inPlanningOrder = uniqueBy([...tasks].sort(planningOrder), (task) => task.id);
  const placements: Placement[] = [];
  const unplaced: UnplacedTask[] = [];
  for (const task of inPlanningOrder) {
    parseDate(task.date);
    if (task.date < planning.today) continue;
    const span = findSlot(task.date, task.minutes * MINUTE_MS, Number.NEGATIVE_INFINITY, planning);
    if (span) placements.push({ taskId: task.id, ...toInterval(span), change: 'new' });
    else unplaced.push({ taskId: task.id, date: task.date, minutes: task.minutes, previousBlock: null });
  }
  return { placements, unplaced };
}

/**
 * The earliest free slot of `durationMs` on `date`, inside its working hours, not before `notBeforeMs`
 * nor before now; it is taken (added to the occupied times) when found.
 */
function findSlot(date: string, durationMs: number, notBeforeMs: number, planning: Planning): Span | null {
  const window = workingWindow(date, planning.hours, planning.timeZone);
  if (!window) return null;
  const from = Math.max(window.start.getTime(), notBeforeMs, planning.earliestStartMs);
  const start = firstFreeStart({
    from,
    until: window.end.getTime(),
    durationMs,
    occupied: planning.occupied,
    gapMs: planning.hours.gapMs,
  });
  if (start === null) return null;
  const span = { start, end: start + durationMs };
  planning.occupied.push(span);
  return span;
}

/** Todoist priority first (4 = p1), then the user's order, then the id to break ties for good. */
function planningOrder(a: PlannerTask, b: PlannerTask): number {
  return b.priority - a.priority || a.order - b.order || compareText(a.id, b.id);
}

/** Code-unit order: unlike localeCompare, the same on every machine. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (seen.has(key(item))) return false;
    seen.add(key(item));
    return true;
  });
}

const toSpan = (interval: Interval): Span => ({
  start: interval.start.getTime(),
  end: interval.end.getTime(),
});
const toInterval = (span: Span): Interval => ({ start: new Date(span.start), end: new Date(span.end) });
