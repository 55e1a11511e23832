import type { Logger } from 'pino';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { ActivityNames, ItemName, NameSide } from '#shared/api/activity-names.schema.ts';
import { REFUSED_LISTED } from '#shared/api/sync.schema.ts';
import type { CalendarTarget } from '../calendar-target.port.ts';
import { eventName, taskName } from '../plan/item-name.ts';
import type { SyncActivityRepository } from '../store/sync-activity.repository.ts';
import type { SyncLinkRepository } from '../store/sync-link.repository.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncLink } from '../sync-link.ts';
import type { TaskSource } from '../task-source.port.ts';
import type { WithToken } from '../with-token.ts';
import { type AppBudgetSpend, spendOneNow } from './budget-spend.ts';

/** A name read is kept in this process's memory this long at most, then read again when asked for. */
export const NAMES_KEPT_MS = 3 * 60_000;
/** Reads of names a user's screens may make per minute; beyond, the items show by id for a while. */
export const NAME_READS_PER_MINUTE = 12;
/** The page of activity the dashboard shows (the activity's own page), whose items are named. */
export const NAMED_ENTRIES = 30;
const MINUTE_MS = 60_000;
/** The calendar is read a minute around the linked events, so an event that moved a little is found. */
const WINDOW_MARGIN_MS = MINUTE_MS;

export type ActivityNamesDeps = {
  activity: Pick<SyncActivityRepository, 'recent' | 'lastHeld'>;
  states: Pick<SyncStateRepository, 'find'>;
  links: Pick<SyncLinkRepository, 'all' | 'refused'>;
  tasks: Pick<TaskSource, 'openTasks'>;
  calendars: Record<'google' | 'microsoft', CalendarTarget | null>;
  withToken: WithToken;
  /** The app-wide calendar budget the runs spend from: a read of names spends from it and never waits. */
  appBudget?: AppBudgetSpend;
  clock: Clock;
  log: Pick<Logger, 'warn'>;
};

/** A name as read: null for an item gone, undefined for one not found where we could look (not shown). */
type Read = ItemName | null | undefined;
type Kept = { readAt: number; name: Read };
type Wanted = { taskIds: Map<string, number>; eventIds: Map<string, number> };

/** The span of the linked events, for one read of their calendar. */
function windowOf(links: readonly SyncLink[]): { from: Date; to: Date } {
  const starts = links.map((link) => link.startAt.getTime());
  const ends = links.map((link) => link.startAt.getTime() + link.eventMinutes * MINUTE_MS);
  return {
    from: new Date(Math.min(...starts) - WINDOW_MARGIN_MS),
    to: new Date(Math.max(...ends) + WINDOW_MARGIN_MS),
  };
}

/** Names kept per user for `NAMES_KEPT_MS`, and the user's reads of the last minute (at most `NAME_READS_PER_MINUTE`). */
function createNameMemory() {
  const kept = new Map<string, Map<string, Kept>>();
  const readTimes = new Map<string, number[]>();
  return {
    /** Drops names older than `NAMES_KEPT_MS` and read times older than a minute, for every user. */
    forget(now: number) {
      for (const [userId, names] of kept) {
        for (const [key, name] of names) if (now - name.readAt >= NAMES_KEPT_MS) names.delete(key);
        if (names.size === 0) kept.delete(userId);
      }
      for (const [userId, times] of readTimes) {
        const recent = times.filter((time) => now - time < MINUTE_MS);
        if (recent.length === 0) readTimes.delete(userId);
        else readTimes.set(userId, recent);
      }
    },
    /** Counts a read of the user's names, or refuses it beyond the per-minute limit. */
    admit(userId: string, now: number): boolean {
      const times = readTimes.get(userId) ?? [];
      if (times.length >= NAME_READS_PER_MINUTE) return false;
      readTimes.set(userId, [...times, now]);
      return true;
    },
    get: (userId: string, side: NameSide, id: string) => kept.get(userId)?.get(`${side} ${id}`),
    keep(userId: string, side: NameSide, names: Map<string, Read>, readAt: number) {
      const ofUser = kept.get(userId) ?? new Map<string, Kept>();
      kept.set(userId, ofUser);
      for (const [id, name] of names) ofUser.set(`${side} ${id}`, { readAt, name });
    },
  };
}

/**
 * Ids the page names (its entries, the held removals, the refused writes), each with the time of its
 * newest entry or refusal (a name read before it is stale).
 */
async function wantedIds(deps: ActivityNamesDeps, userId: string): Promise<Wanted> {
  const [entries, held, refused] = await Promise.all([
    deps.activity.recent(userId, NAMED_ENTRIES),
    deps.activity.lastHeld(userId),
    deps.links.refused(userId, REFUSED_LISTED),
  ]);
  const result: Wanted = { taskIds: new Map(), eventIds: new Map() };
  const note = (ids: Map<string, number>, id: string | null, at: number) => {
    if (id) ids.set(id, Math.max(ids.get(id) ?? 0, at));
  };
  for (const entry of entries) {
    note(result.taskIds, entry.taskId, Date.parse(entry.at));
    note(result.eventIds, entry.eventId, Date.parse(entry.at));
  }
  for (const item of held) {
    note(result.taskIds, item.taskId, 0);
    note(result.eventIds, item.eventId, 0);
  }
  for (const pair of refused.pairs) {
    note(result.taskIds, pair.taskId, pair.refusedAt.getTime());
    note(result.eventIds, pair.eventId, pair.refusedAt.getTime());
  }
  return result;
}

/** The open tasks among `ids`, in one Todoist read; the others are gone (deleted or completed). */
async function readTasks(deps: ActivityNamesDeps, userId: string, ids: readonly string[]) {
  const open = await deps.withToken(userId, 'todoist', (token) => deps.tasks.openTasks(token, ids));
  const byId = new Map(open.map((task) => [task.id, taskName(task)]));
  return new Map<string, Read>(ids.map((id) => [id, byId.get(id) ?? null]));
}

/** The linked events among `ids`, in one read of their calendar over their span. */
async function readEvents(deps: ActivityNamesDeps, userId: string, ids: readonly string[], now: Date) {
  const state = await deps.states.find(userId);
  const provider = state?.calendarProvider;
  const calendar = provider ? deps.calendars[provider] : null;
  if (!provider || !calendar) throw new Error('no calendar connected');
  const wanted = new Set(ids);
  const links = (await deps.links.all(userId)).filter((link) => link.eventId && wanted.has(link.eventId));
  // An event no longer linked has no known time to look for it: not looked for, and not shown.
  const read = new Map<string, Read>(ids.map((id) => [id, undefined]));
  // One read per calendar of the page's events: the one the sync writes to, unless it just changed.
  const byCalendar = new Map<string, SyncLink[]>();
  for (const link of links)
    byCalendar.set(link.calendarId, [...(byCalendar.get(link.calendarId) ?? []), link]);
  for (const [calendarId, ofCalendar] of byCalendar) {
    if ((await spendOneNow(deps.appBudget, provider, now)) > 0) throw new Error('calendar budget spent');
    const { from, to } = windowOf(ofCalendar);
    const events = await deps.withToken(userId, 'calendar', (token) =>
      calendar.eventsBetween(token, calendarId, from, to),
    );
    const byId = new Map(events.map((event) => [event.id, eventName(event)]));
    for (const link of ofCalendar) read.set(link.eventId as string, byId.get(link.eventId as string) ?? null);
  }
  return read;
}

/**
 * The titles and times of the tasks and events the user's activity page, held removals and refused writes name
 * (docs/decisions/025-names-read-live.md). Read when a screen asks: the open tasks among them in one
 * Todoist read, the linked events in one read of their calendar; kept in this process's memory for
 * `NAMES_KEPT_MS` at most (and read again once the activity names the item anew), never written
 * anywhere. A side that cannot be read now is reported unavailable and its items show by id.
 */
export function createActivityNames(deps: ActivityNamesDeps) {
  const memory = createNameMemory();

  /** Reads one side's missing names into the kept ones; false when it could not be read. */
  async function fill(userId: string, side: NameSide, read: () => Promise<Map<string, Read>>) {
    try {
      memory.keep(userId, side, await read(), deps.clock().getTime());
      return true;
    } catch (error) {
      // The error names the call, never an item's text.
      deps.log.warn({ userId, side, err: error }, 'names for the sync activity could not be read');
      return false;
    }
  }

  return {
    async names(userId: string): Promise<ActivityNames> {
      const now = deps.clock();
      memory.forget(now.getTime());
      const { taskIds, eventIds } = await wantedIds(deps, userId);
      const missing = (side: NameSide, ids: Map<string, number>) =>
        [...ids].filter(([id, at]) => (memory.get(userId, side, id)?.readAt ?? -1) < at).map(([id]) => id);
      const missingTasks = missing('todoist', taskIds);
      const missingEvents = missing('calendar', eventIds);
      const unavailable: NameSide[] = [];
      const admitted =
        missingTasks.length + missingEvents.length === 0 || memory.admit(userId, now.getTime());
      const [tasksRead, eventsRead] = await Promise.all([
        missingTasks.length === 0 ||
          (admitted && fill(userId, 'todoist', () => readTasks(deps, userId, missingTasks))),
        missingEvents.length === 0 ||
          (admitted && fill(userId, 'calendar', () => readEvents(deps, userId, missingEvents, now))),
      ]);
      if (!tasksRead) unavailable.push('todoist');
      if (!eventsRead) unavailable.push('calendar');
      const namesOf = (side: NameSide, ids: Map<string, number>) =>
        Object.fromEntries(
          [...ids.keys()].flatMap((id) => {
            const name = memory.get(userId, side, id)?.name;
            return name !== undefined ? [[id, name]] : [];
          }),
        );
      return { tasks: namesOf('todoist', taskIds), events: namesOf('calendar', eventIds), unavailable };
    },
  };
}

export type ActivityNamesReader = ReturnType<typeof createActivityNames>;
