import { createHash } from 'node:crypto';
import type { LeftBehind } from '#server/db/schema/sync.tables.ts';
import {
  type CalendarEvent,
  CalendarGoneError,
  type CalendarTarget,
  type EventLook,
} from '../calendar-target.port.ts';
import { eventWriteFor } from '../plan/event-write.ts';
import { linkWhen } from '../plan/timebox-when.ts';
import type { NewActivity, SyncActivityRepository } from '../store/sync-activity.repository.ts';
import type { SyncLinkRepository } from '../store/sync-link.repository.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncLink } from '../sync-link.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { SyncState } from '../sync-state.ts';
import type { WithToken } from '../with-token.ts';

/**
 * The user chose another calendar while sync was on (docs/product-rules.md §10 "Changes around the
 * sync"). Pairs whose event is in another calendar:
 * - of the same account: the event moves into the chosen calendar (`CalendarTarget.move`) and its link
 *   follows, so no event stays behind and none is made twice;
 * - of an account no longer the sync's (another account, or the other provider): nothing there is
 *   written; the pairs are parked in that account, the dashboard says how many events stayed where, and
 *   the run reads every task so the timeboxed ones get their events in the chosen calendar.
 * Pairs parked in the chosen calendar of the sync's account (it came back) are the sync's again
 * (`resumeParked`): their events are brought up to date, none made twice.
 */
export type CalendarSwitchDeps = {
  links: SyncLinkRepository;
  states: Pick<SyncStateRepository, 'save'>;
  activity: Pick<SyncActivityRepository, 'add'>;
  withToken: WithToken;
};

export type Relocation = {
  links: SyncLink[];
  /** Pairs were parked or resumed: every task must be read (for new events, or to judge a pair again). */
  readAllTasks: boolean;
};

/** The tasks whose pairs `relocatePairs` parked (left in a calendar no longer written to). */
export function leftBehindTasks(before: readonly SyncLink[], after: readonly SyncLink[]): Set<string> {
  const kept = new Set(after.map((link) => link.id));
  return new Set(before.flatMap((link) => (link.taskId && !kept.has(link.id) ? [link.taskId] : [])));
}

/** The same on every attempt at one move, so a repeated one finds the event the first attempt made. */
export const moveKey = (linkId: string, calendarId: string) =>
  createHash('sha256').update(`${linkId}:move:${calendarId}`).digest('hex').slice(0, 32);

export async function relocatePairs(
  deps: CalendarSwitchDeps,
  input: {
    userId: string;
    settings: SyncSettings;
    calendar: CalendarTarget;
    state: SyncState | null;
    calendarAccountId: string | null;
    links: SyncLink[];
    now: Date;
  },
): Promise<Relocation> {
  const { userId, settings, state, links, now } = input;
  const away = links.filter((link) => link.calendarId !== settings.calendarId);
  if (away.length === 0) return resumeParked(deps, { ...input, links });
  const sameAccount =
    (state?.calendarProvider ?? settings.calendarProvider) === settings.calendarProvider &&
    (!state?.calendarAccountId ||
      !input.calendarAccountId ||
      state.calendarAccountId === input.calendarAccountId);
  if (!sameAccount) {
    await leaveBehind(deps, userId, state, { stuck: away, unlinked: away, why: 'disconnected' }, now);
    const resumed = await resumeParked(deps, {
      ...input,
      links: links.filter((link) => !away.includes(link)),
    });
    return { links: resumed.links, readAllTasks: true };
  }

  const activity: NewActivity[] = [];
  const moved = new Map<string, SyncLink>();
  /** Pairs whose event the old calendar would not give up, and of those the ones left without one. */
  const stuck: SyncLink[] = [];
  const unlinked: SyncLink[] = [];
  for (const link of away) {
    let values: Partial<SyncLink> = { calendarId: settings.calendarId };
    if (link.eventId === null && link.pendingKey && link.taskId) {
      // A create whose answer was lost: its event may be in the old calendar. Moved under the create's
      // own key, the run's repeated create finds it in the new one; not found, it is made there.
      const { pendingKey, taskId } = link;
      const made = await deps.withToken(userId, 'calendar', (token) =>
        input.calendar.findCreated(token, link.calendarId, pendingKey, taskId),
      );
      if (made) {
        const moving = {
          fromCalendarId: link.calendarId,
          toCalendarId: settings.calendarId,
          eventId: made.id,
          clientKey: pendingKey,
        };
        // Stuck in a calendar that can only be read now, the event stays there; the repeated create
        // finds the copy a Graph move made under the same key, or makes the event.
        await moveOut(deps, userId, input.calendar, moving, link, lookOf(settings, link));
      }
    } else if (link.eventId) {
      const moving = {
        fromCalendarId: link.calendarId,
        toCalendarId: settings.calendarId,
        eventId: link.eventId,
        clientKey: moveKey(link.id, settings.calendarId),
      };
      const outcome = await moveOut(deps, userId, input.calendar, moving, link, lookOf(settings, link));
      if (outcome.kind === 'stuck') {
        // The old calendar can only be read now: its event stays there, out of the sync, and an open
        // task gets its event in the chosen one: the copy a Graph move made already, else a new one.
        stuck.push(link);
        if (!outcome.copy) {
          unlinked.push(link);
          continue;
        }
        values = { ...values, eventId: outcome.copy.id, eventVersion: outcome.copy.version };
        await deps.links.save(userId, link.id, values, now);
        moved.set(link.id, { ...link, ...values });
        continue;
      }
      const event = outcome.event;
      // Gone from both calendars: the link follows, and the run sees the event deleted.
      if (event) values = { ...values, eventId: event.id, eventVersion: event.version };
      activity.push({
        direction: 'todoist-to-calendar',
        action: 'updated',
        detail: event ? 'moved' : 'event-missing',
        taskId: link.taskId,
        eventId: event?.id ?? link.eventId,
      });
    }
    await deps.links.save(userId, link.id, values, now);
    moved.set(link.id, { ...link, ...values });
  }
  await deps.activity.add(userId, activity, now);
  if (stuck.length > 0) await leaveBehind(deps, userId, state, { stuck, unlinked, why: 'read-only' }, now);
  const resumed = await resumeParked(deps, {
    ...input,
    links: links.filter((link) => !unlinked.includes(link)).map((link) => moved.get(link.id) ?? link),
  });
  return { links: resumed.links, readAllTasks: unlinked.length > 0 || resumed.readAllTasks };
}

/**
 * The sync is in a calendar where pairs of an earlier stay were parked (docs/product-rules.md §10
 * "Changes around the sync"): each whose task has no pair of the sync's is the sync's again, so the
 * run judges it as any pair, from every task read and the calendar read in full (it was another
 * calendar's position the state kept): a task changed meanwhile updates its event, one done or deleted
 * is handled as such (through the safety brake), an event the user deleted meanwhile as such. A parked
 * pair whose task or event has one of the sync's already is dropped: its event stays the user's. Looked
 * for only when the sync is somewhere else than at its last run (the state says where that was).
 */
export async function resumeParked(
  deps: Pick<CalendarSwitchDeps, 'links' | 'states'>,
  input: {
    userId: string;
    settings: SyncSettings;
    state: SyncState | null;
    calendarAccountId: string | null;
    links: SyncLink[];
    now: Date;
  },
): Promise<Relocation> {
  const { userId, settings, state, links, now } = input;
  const stayed =
    state?.calendarId === settings.calendarId &&
    state.calendarProvider === settings.calendarProvider &&
    state.calendarAccountId === input.calendarAccountId;
  if (stayed || !input.calendarAccountId) return { links, readAllTasks: false };
  const account = { provider: settings.calendarProvider, accountId: input.calendarAccountId };
  const parked = await deps.links.parked(userId, account, settings.calendarId);
  if (parked.length === 0) return { links, readAllTasks: false };
  const tasks = new Set(links.flatMap((link) => (link.taskId ? [link.taskId] : [])));
  const events = new Set(links.flatMap((link) => (link.eventId ? [link.eventId] : [])));
  const resumed: SyncLink[] = [];
  for (const link of parked) {
    const taken =
      !link.taskId || tasks.has(link.taskId) || (link.eventId !== null && events.has(link.eventId));
    if (taken) {
      await deps.links.remove(userId, link.id);
      continue;
    }
    if (link.taskId) tasks.add(link.taskId);
    if (link.eventId) events.add(link.eventId);
    resumed.push(link);
  }
  // As when leaving pairs behind, the Todoist token goes first: a run that fails after this still
  // leaves the next one reading every task, so what changed meanwhile reaches the resumed pairs.
  if (resumed.length > 0) await deps.states.save(userId, { todoistToken: null }, now);
  await deps.links.resume(
    userId,
    resumed.map((link) => link.id),
    now,
  );
  return { links: [...links, ...resumed], readAllTasks: resumed.length > 0 };
}

type MoveOut = { kind: 'moved'; event: CalendarEvent | null } | { kind: 'stuck'; copy: CalendarEvent | null };

/**
 * Moves one linked event into the chosen calendar. A calendar the account can only read now refuses
 * to give it up (Google's move, Graph's delete after its copy: docs/provider-facts.md §9): stuck, with
 * the copy Graph made already (found by the move's key), if any.
 */
async function moveOut(
  deps: CalendarSwitchDeps,
  userId: string,
  calendar: CalendarTarget,
  moving: { fromCalendarId: string; toCalendarId: string; eventId: string; clientKey: string },
  link: SyncLink,
  look: EventLook,
): Promise<MoveOut> {
  try {
    const event = await deps.withToken(userId, 'calendar', (token) => calendar.move(token, moving, look));
    return { kind: 'moved', event };
  } catch (error) {
    if (!(error instanceof CalendarGoneError)) throw error;
    // The chosen calendar itself refusing shows at its first write in this run, as a problem.
    const copy = link.taskId
      ? await deps.withToken(userId, 'calendar', (token) =>
          calendar.findCreated(token, moving.toCalendarId, moving.clientKey, link.taskId as string),
        )
      : null;
    // A done pair ends there, as when its account is no longer connected: no event of it in the chosen
    // calendar, whichever provider (Google's refused move makes none).
    if (copy && link.completed) {
      await deps.withToken(userId, 'calendar', (token) =>
        calendar.remove(token, moving.toCalendarId, copy.id),
      );
      return { kind: 'stuck', copy: null };
    }
    return { kind: 'stuck', copy };
  }
}

/** An event made anew where it moves keeps the look the settings give ours (the user's keep theirs). */
function lookOf(settings: SyncSettings, link: SyncLink): EventLook {
  const {
    title: _title,
    start: _start,
    end: _end,
    date: _date,
    ...look
  } = eventWriteFor(
    settings,
    { id: link.taskId ?? '', title: '' },
    linkWhen(link),
    link.eventMinutes,
    link.marked,
    link.origin === 'task',
  );
  return look;
}

/**
 * Records events of ours that stay in a calendar no longer written to: `stuck` are their pairs, of which
 * `unlinked` are ended (their tasks get events in the chosen calendar from a read of every task); the
 * others follow a copy in the chosen calendar already. Ended in an account no longer the sync's, a pair
 * with its task and event is parked there, to wait for the sync to come back to that calendar; the
 * others are removed.
 */
async function leaveBehind(
  deps: CalendarSwitchDeps,
  userId: string,
  state: SyncState | null,
  { stuck, unlinked, why }: { stuck: SyncLink[]; unlinked: SyncLink[]; why: NonNullable<LeftBehind['why']> },
  now: Date,
) {
  const withEvents = stuck.filter((link) => link.eventId !== null);
  // Forgetting the Todoist token first keeps the read of every task so until a run saves a new one: a
  // run that fails after this still leaves the next one reading them all (no task waits for a change).
  if (unlinked.length > 0) await deps.states.save(userId, { todoistToken: null }, now);
  // Stuck in a calendar of the sync's own account, a pair has nothing to wait for: coming back there,
  // the sync's pairs move in with their events.
  const parking =
    why === 'disconnected' ? unlinked.filter((link) => link.taskId !== null && link.eventId !== null) : [];
  const account =
    state?.calendarProvider && state.calendarAccountId
      ? { provider: state.calendarProvider, accountId: state.calendarAccountId }
      : null;
  await deps.links.park(
    userId,
    parking.map((link) => link.id),
    account,
    now,
  );
  for (const link of unlinked) if (!parking.includes(link)) await deps.links.remove(userId, link.id);
  await deps.activity.add(
    userId,
    withEvents.map((link) => ({
      direction: 'todoist-to-calendar' as const,
      action: 'skipped' as const,
      detail: 'left-in-previous-calendar',
      taskId: link.taskId,
      eventId: link.eventId,
    })),
    now,
  );
  const first = withEvents[0];
  if (!first || !state?.calendarProvider) return;
  const leftBehind: LeftBehind = {
    provider: state.calendarProvider,
    calendarId: first.calendarId,
    calendarName: first.calendarId === state.calendarId ? state.calendarName : null,
    // Two switches away from one calendar add up; another calendar's count is replaced.
    events:
      withEvents.length + (state.leftBehind?.calendarId === first.calendarId ? state.leftBehind.events : 0),
    at: now.toISOString(),
    why,
  };
  await deps.states.save(userId, { leftBehind }, now);
}
