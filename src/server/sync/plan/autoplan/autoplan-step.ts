import { otherCalendarsCount } from '#shared/settings/autoplan-busy.ts';
import { type CalendarEvent, dayAfter } from '../../calendar-target.port.ts';
import type { SyncLink } from '../../sync-link.ts';
import type { SyncSettings } from '../../sync-settings.ts';
import type { AutoplanKept } from '../../sync-state.ts';
import type { DueWrite, TaskSnapshot } from '../../task-source.port.ts';
import { dueInstant, dueWriteFor, startOfLocalDay } from '../due-time.ts';
import { taskMinutes } from '../sync-scope.ts';
import { localDate, startOfDate } from '../timebox-when.ts';
import { type Interval, type PlacedBlock, type PlannerTask, planSlots } from './slot-planner.ts';
import { type UnplacedDay, unplacedByDay } from './unplaced-days.ts';

/**
 * "Plan my day" inside a sync run (docs/product-rules.md §10): which dated tasks wait for a time, which
 * blocks it placed may still move, over which days the calendar must be read, and, from that read, the
 * due times to write. Pure: the engine reads, asks here, and writes (see run/autoplan-run.ts).
 */

type Kept = AutoplanKept;
type KeptUnplaced = Kept['unplaced'][number];

/** What a run knows before it reads the calendar's window. */
export type AutoplanInput = {
  settings: SyncSettings;
  now: Date;
  /** Tasks the run read (all open ones after a full read). */
  tasks: readonly TaskSnapshot[];
  /** Events the run's sync read brought (a placed block's event moved by the user is the user's). */
  events: readonly CalendarEvent[];
  links: readonly SyncLink[];
  kept: Kept | null;
};

/**
 * The kept blocks without those of `taskIds`, whose pairs a run just left in a calendar it no longer
 * writes to (run/calendar-switch.ts: another account is the sync's now). Their tasks keep their times
 * and get their events in the chosen calendar; the blocks are the user's from then on, as if they had
 * moved them: kept, their old events, read as busy in an account added beside the sync's, would push
 * them off their own time. The same `kept` when none of them was placed.
 */
export function forgetPlacements(kept: Kept | null, taskIds: ReadonlySet<string>): Kept | null {
  if (kept === null) return null;
  if (!kept.placements.some((block) => taskIds.has(block.taskId))) return kept;
  return { ...kept, placements: kept.placements.filter((block) => !taskIds.has(block.taskId)) };
}

/** What to plan: the tasks waiting for a time, the blocks that may move, and the days to read. */
export type AutoplanWork = {
  tasks: (PlannerTask & Pick<KeptUnplaced, 'priority' | 'order'>)[];
  placed: PlacedBlock[];
  /** Whether the calendar's window must be read (else nothing can have landed on a placed block). */
  readWindow: boolean;
  /** The window to read the calendar over: from the start of today to the end of the last day. */
  from: Date;
  to: Date;
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The task waits for a time: open, dated without a time, not recurring, from today on, timeboxed. */
function waiting(task: TaskSnapshot, settings: SyncSettings, today: string): PlannerTask | null {
  const due = task.due;
  if (task.checked || task.isDeleted || !due || due.isRecurring || !DATE_ONLY.test(due.date)) return null;
  if (due.date < today) return null;
  // A dated task is timeboxed as an all-day one would be: a timebox label (or duration), a project in scope.
  const minutes = taskMinutes(task, { ...settings, datedTasks: 'allday' });
  if (minutes === null) return null;
  return { id: task.id, date: due.date, minutes, priority: task.priority, order: task.order };
}

/**
 * A placed block still the app's: its task (if read) is open at that very time and length, its event
 * (if read) not moved.
 */
function stillPlaced(
  block: Kept['placements'][number],
  input: AutoplanInput,
  read: ReadonlyMap<string, TaskSnapshot>,
  startOfToday: Date,
): boolean {
  const start = new Date(block.start);
  if (new Date(block.end) <= startOfToday) return false;
  const task = read.get(block.taskId);
  if (task) {
    if (task.checked || task.isDeleted) return false;
    if (dueInstant(task.due, input.settings.timeZone)?.getTime() !== start.getTime()) return false;
    // Another length (a label or duration changed) is the user's change too.
    const minutes = (new Date(block.end).getTime() - start.getTime()) / 60_000;
    if (taskMinutes(task, input.settings) !== minutes) return false;
  }
  const eventId = eventOf(block.taskId, input.links);
  const event = eventId ? input.events.find((each) => each.id === eventId) : undefined;
  return !event || atBlock(event, start);
}

const eventOf = (taskId: string, links: readonly SyncLink[]) =>
  links.find((link) => link.taskId === taskId)?.eventId ?? null;

const atBlock = (event: CalendarEvent, start: Date) =>
  !event.deleted && event.start?.getTime() === start.getTime();

/**
 * The blocks still the app's after the calendar's window was read: one whose event it shows at another
 * time, or no longer shows (deleted, or moved to another day), was moved by the user, though the run's
 * own read did not bring that change (a run answering a Todoist notification reads only Todoist). Such
 * a block is never moved again, and its event is busy like any other.
 */
function stillPlacedInWindow(
  placed: readonly PlacedBlock[],
  window: readonly CalendarEvent[],
  links: readonly SyncLink[],
): PlacedBlock[] {
  return placed.filter((block) => {
    const eventId = eventOf(block.taskId, links);
    const event = eventId ? window.find((each) => each.id === eventId) : undefined;
    return !eventId || (event !== undefined && atBlock(event, block.start));
  });
}

/**
 * The run read a calendar change a placed block may now overlap: anything but the echo of the sync's
 * own write to a placed block's event (the version its link keeps). The echo of another pair's event
 * made or moved is a change: a task the user timed onto a block gets its event only after this step.
 */
function calendarChanged(input: AutoplanInput, placed: readonly PlacedBlock[]): boolean {
  const blocks = new Set(placed.map((block) => block.taskId));
  const echoes = new Map(
    input.links.flatMap((link) =>
      link.taskId && blocks.has(link.taskId) && link.eventId
        ? [[link.eventId, link.eventVersion] as const]
        : [],
    ),
  );
  return input.events.some((event) => echoes.get(event.id) !== event.version);
}

/** The account's other calendars whose busy times count (none unless `otherCalendarsCount` says so). */
export function busyCalendarIds(settings: SyncSettings): string[] {
  return otherCalendarsCount(settings.autoplan.otherCalendarsBusy, settings.mainCalendar)
    ? settings.otherCalendarIds
    : [];
}

/**
 * Whether the calendars of the accounts added beside the sync's count as busy (decision 028): unless
 * the user said their other calendars do not count. A second account is connected for its meetings, so
 * the main-calendar default that leaves the account's own other calendars out does not apply to it.
 */
export function otherAccountsCount(settings: SyncSettings): boolean {
  return settings.autoplan.otherCalendarsBusy !== false;
}

/**
 * What the placed blocks are settled against besides the calendar itself: the working days and hours,
 * their zone, the gap, the other calendars that count, and the accounts added beside the sync's that
 * count (each with its calendars). Another value re-plans them (a block that now clashes or lies
 * outside the hours moves) though no meeting changed: an account added, removed, connected again or
 * made the sync's is checked at once. Without added accounts the key is what it was before they
 * existed, so no placed block is checked again for nothing.
 */
export function autoplanKey(settings: SyncSettings): string {
  const { days, start, end, gapMinutes } = settings.autoplan;
  const others = [...busyCalendarIds(settings)].sort();
  const key: unknown[] = [[...days].sort(), start, end, gapMinutes, settings.timeZone, others];
  const accounts = otherAccountsCount(settings)
    ? settings.otherAccounts.map((account) => [account.id, [...account.calendarIds].sort()]).sort()
    : [];
  if (accounts.length > 0) key.push(accounts);
  return JSON.stringify(key);
}

/** The settings the blocks were settled with changed; a state kept before they were recorded records them. */
function settingsChanged({ kept, settings }: Pick<AutoplanInput, 'kept' | 'settings'>): boolean {
  return kept?.plannedWith !== undefined && kept.plannedWith !== autoplanKey(settings);
}

/**
 * The work this run has for "Plan my day"; null when there is none (off, nothing waiting, or only
 * placed blocks and no calendar or settings change that could land on them).
 */
export function autoplanWork(input: AutoplanInput): AutoplanWork | null {
  const { settings, now } = input;
  if (!settings.autoplan.active) return null;
  const today = localDate(now, settings.timeZone);
  const startOfToday = startOfLocalDay(now, settings.timeZone);
  const read = new Map(input.tasks.map((task) => [task.id, task]));
  const fresh = input.tasks.flatMap((task) => waiting(task, settings, today) ?? []);
  const remembered = (input.kept?.unplaced ?? [])
    .filter((entry) => !read.has(entry.taskId) && entry.date >= today)
    .map(({ taskId, ...entry }) => ({ ...entry, id: taskId }));
  const tasks = [...fresh, ...remembered];
  const placed = (input.kept?.placements ?? [])
    .filter((block) => stillPlaced(block, input, read, startOfToday))
    .map((block) => ({ taskId: block.taskId, start: new Date(block.start), end: new Date(block.end) }));
  if (
    tasks.length === 0 &&
    placed.length === 0 &&
    !input.kept?.placements.length &&
    !input.kept?.unplaced.length
  )
    return null;
  const lastDate =
    [...tasks.map((task) => task.date), ...placed.map((block) => localDate(block.start, settings.timeZone))]
      .sort()
      .at(-1) ?? today;
  return {
    tasks,
    placed,
    // Placed blocks alone are checked again only when the calendar changed (a meeting may have landed)
    // or the hours, the gap or the calendars that count did.
    readWindow:
      tasks.length > 0 || (placed.length > 0 && (calendarChanged(input, placed) || settingsChanged(input))),
    from: startOfToday,
    to: startOfDate(dayAfter(lastDate), settings.timeZone) ?? startOfToday,
  };
}

export type AutoplanResult = {
  /**
   * The dues to write: a time for tasks placed for the first time and blocks moved; the date again
   * (`start` null) for a placed block that no longer fits anywhere on its day.
   */
  writes: { taskId: string; due: DueWrite; start: Date | null }[];
  kept: Kept;
  unplacedDays: UnplacedDay[];
};

/**
 * Busy: the window's events that take their time (not free, not all-day), except the events of the
 * blocks that may move (they are where the planner may put them back).
 */
export function busyTimes(window: readonly CalendarEvent[], work: AutoplanWork, links: readonly SyncLink[]) {
  const movable = new Set(work.placed.map((block) => block.taskId));
  const ours = new Set(
    links.flatMap((link) => (link.taskId && movable.has(link.taskId) && link.eventId ? [link.eventId] : [])),
  );
  return window.flatMap((event): Interval[] =>
    !event.deleted && event.busy && !event.allDay && event.start && event.end && !ours.has(event.id)
      ? [{ start: event.start, end: event.end }]
      : [],
  );
}

/**
 * Places the waiting tasks and settles the placed blocks against the window's busy times; a block the
 * window shows the user moved is theirs from then on.
 */
export function planAutoplan(
  input: Pick<AutoplanInput, 'settings' | 'now' | 'links'>,
  work: AutoplanWork,
  window: readonly CalendarEvent[],
  /** Busy times of the account's other calendars, when they count. */
  elsewhere: readonly Interval[] = [],
): AutoplanResult {
  const { settings, now } = input;
  const { days, start, end, gapMinutes } = settings.autoplan;
  const placed = work.readWindow ? stillPlacedInWindow(work.placed, window, input.links) : work.placed;
  const plan = planSlots({
    now,
    timeZone: settings.timeZone,
    hours: { days, start, end, gapMinutes },
    tasks: work.tasks,
    busy: [...busyTimes(window, { ...work, placed }, input.links), ...elsewhere],
    placed,
  });
  const byId = new Map(work.tasks.map((task) => [task.id, task]));
  const writes: AutoplanResult['writes'] = plan.placements
    .filter((placement) => placement.change !== 'kept')
    .map((placement) => ({
      taskId: placement.taskId,
      start: placement.start,
      due: dueWriteFor(placement.start, null, settings.timeZone),
    }));
  for (const entry of plan.unplaced) {
    if (entry.previousBlock === null) continue;
    writes.push({ taskId: entry.taskId, start: null, due: { kind: 'date', date: entry.date } });
  }
  const unplaced = plan.unplaced.map((entry) => ({
    taskId: entry.taskId,
    date: entry.date,
    minutes: entry.minutes,
    priority: byId.get(entry.taskId)?.priority ?? 1,
    order: byId.get(entry.taskId)?.order ?? 0,
  }));
  return {
    writes,
    kept: {
      placements: plan.placements.map((placement) => ({
        taskId: placement.taskId,
        start: placement.start.toISOString(),
        end: placement.end.toISOString(),
      })),
      unplaced,
      plannedWith: autoplanKey(settings),
    },
    unplacedDays: unplacedByDay(plan.unplaced),
  };
}
