import { createHash } from 'node:crypto';
import type { LeftBehind } from '#server/db/schema/sync.tables.ts';
import type { CalendarTarget, EventLook } from '../calendar-target.port.ts';
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
 * - of an account no longer connected (another account, or the other provider): nothing there can be
 *   written; the pairs are unlinked, the dashboard says how many events stayed where, and the run reads
 *   every task so the timeboxed ones get their events in the chosen calendar.
 */
export type CalendarSwitchDeps = {
  links: SyncLinkRepository;
  states: Pick<SyncStateRepository, 'save'>;
  activity: Pick<SyncActivityRepository, 'add'>;
  withToken: WithToken;
};

export type Relocation = {
  links: SyncLink[];
  /** Pairs were unlinked: every task must be read for new events. */
  readAllTasks: boolean;
};

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
  if (away.length === 0) return { links, readAllTasks: false };
  const sameAccount =
    (state?.calendarProvider ?? settings.calendarProvider) === settings.calendarProvider &&
    (!state?.calendarAccountId ||
      !input.calendarAccountId ||
      state.calendarAccountId === input.calendarAccountId);
  if (!sameAccount) {
    await leaveBehind(deps, userId, state, away, now);
    return { links: links.filter((link) => !away.includes(link)), readAllTasks: true };
  }

  const activity: NewActivity[] = [];
  const moved = new Map<string, SyncLink>();
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
        await deps.withToken(userId, 'calendar', (token) =>
          input.calendar.move(
            token,
            {
              fromCalendarId: link.calendarId,
              toCalendarId: settings.calendarId,
              eventId: made.id,
              clientKey: pendingKey,
            },
            lookOf(settings, link),
          ),
        );
      }
    } else if (link.eventId) {
      const event = await deps.withToken(userId, 'calendar', (token) =>
        input.calendar.move(
          token,
          {
            fromCalendarId: link.calendarId,
            toCalendarId: settings.calendarId,
            eventId: link.eventId as string,
            clientKey: moveKey(link.id, settings.calendarId),
          },
          lookOf(settings, link),
        ),
      );
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
  return { links: links.map((link) => moved.get(link.id) ?? link), readAllTasks: false };
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

async function leaveBehind(
  deps: CalendarSwitchDeps,
  userId: string,
  state: SyncState | null,
  away: SyncLink[],
  now: Date,
) {
  const withEvents = away.filter((link) => link.eventId !== null);
  // Their tasks get events in the chosen calendar from a read of every task. Forgetting the Todoist
  // token first keeps that so until a run saves a new one: a run that fails after this still leaves
  // the next one reading them all (and no task waits for a change of its own).
  await deps.states.save(userId, { todoistToken: null }, now);
  for (const link of away) await deps.links.remove(userId, link.id);
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
  };
  await deps.states.save(userId, { leftBehind }, now);
}
