import type { Logger } from 'pino';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { ChangePreview, SyncPreview } from '#shared/api/sync.schema.ts';
import type { CalendarTarget } from '../calendar-target.port.ts';
import { changeEffect, type ProposedChange } from '../plan/change-effect.ts';
import { titleHasher } from '../plan/event-title.ts';
import { earliestNames, eventName, taskName } from '../plan/item-name.ts';
import { type BrakeThresholds, DEFAULT_BRAKE } from '../plan/removal-brake.ts';
import { eventWanted, taskWanted } from '../plan/sync-scope.ts';
import type { OtherAccountsReader } from '../store/other-accounts.reader.ts';
import type { SyncLinkRepository } from '../store/sync-link.repository.ts';
import type { SyncSettingsReader } from '../store/sync-settings.repository.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { TaskSource } from '../task-source.port.ts';
import type { WithToken } from '../with-token.ts';
import { previewAutoplan } from './autoplan-preview.ts';
import { createPreviewReads, type PreviewReadsDeps, syncStateVersion } from './preview-reads.ts';

export type SyncPreviewService = ReturnType<typeof createSyncPreview>;

/**
 * What switching sync on would do, counted with the engine's own scope rules on a full read of both
 * sides. Reads only: nothing is written and no read position is kept. Every provider read goes through
 * `preview-reads.ts` (reused while recent, limited per user, spent from the app-wide budget).
 */
export function createSyncPreview(deps: {
  settings: SyncSettingsReader;
  tasks: TaskSource;
  calendars: Record<'google' | 'microsoft', CalendarTarget | null>;
  withToken: WithToken;
  clock: Clock;
  links: Pick<SyncLinkRepository, 'all'>;
  states: Pick<SyncStateRepository, 'find'>;
  brake?: BrakeThresholds;
  appBudget?: PreviewReadsDeps['appBudget'];
  withAccountToken?: PreviewReadsDeps['withAccountToken'];
  /** The accounts added beside the sync's: Plan my day's preview counts their busy times. */
  otherAccounts?: OtherAccountsReader;
  log: Logger;
}) {
  const reads = createPreviewReads(deps);

  /** Both sides read in full with the user's settings (sync on or off); null when it could not run. */
  async function readBoth(userId: string, now: Date) {
    const [context, state] = await Promise.all([
      deps.settings.load(userId, now, { evenIfOff: true }),
      deps.states.find(userId),
    ]);
    if (!context.runnable) return null;
    const settings = { ...context.settings };
    const calendar = deps.calendars[settings.calendarProvider];
    if (!calendar) return null;
    const read = reads.forPreview(userId, settings.calendarProvider, syncStateVersion(state));
    const [taskRead, calendarRead] = await Promise.all([
      read('todoist', 'todoist', (token) => deps.tasks.changes(token, null)),
      read(`calendar ${settings.calendarId}`, 'calendar', (token) =>
        calendar.changes(token, settings.calendarId, null),
      ),
    ]);
    if (taskRead.timeZone) settings.timeZone = taskRead.timeZone;
    return { context, state, settings, calendar, read, tasks: taskRead.tasks, events: calendarRead.events };
  }

  return {
    /**
     * What `change` would do to what is already synced (null when sync could not run: nothing is
     * synced to change). Reads both sides in full with the user's current settings; writes nothing.
     */
    async previewChange(userId: string, change: ProposedChange): Promise<ChangePreview | null> {
      const now = deps.clock();
      const [read, links] = await Promise.all([readBoth(userId, now), deps.links.all(userId)]);
      if (!read) return null;
      const { settings, calendar, state } = read;
      const newCalendar =
        change.kind === 'calendar' && change.calendarId !== settings.calendarId
          ? await read.read(`calendar ${change.calendarId}`, 'calendar', (token) =>
              calendar.changes(token, change.calendarId, null),
            )
          : null;
      return changeEffect(
        {
          settings,
          now,
          hash: titleHasher(state?.titleSalt ?? ''),
          links: links.filter((link) => link.calendarId === settings.calendarId),
          tasks: read.tasks,
          events: read.events,
          completedOccurrences: new Set(),
        },
        change,
        deps.brake ?? DEFAULT_BRAKE,
        newCalendar?.events ?? [],
      );
    },

    /** Where "Plan my day" would place the next 7 days' dated tasks (see `previewAutoplan`). */
    previewAutoplan: (userId: string) => previewAutoplan({ ...deps, reads }, userId),

    async preview(userId: string): Promise<SyncPreview | null> {
      const now = deps.clock();
      const read = await readBoth(userId, now);
      if (!read) return null;
      const { settings } = read;
      const tasks = read.tasks.filter((task) => taskWanted(task, settings, now));
      const events = read.events.filter((event) => eventWanted(event, settings, now));
      return {
        calendar: { id: settings.calendarId, name: read.context.calendarName },
        tasksToEvents: tasks.length,
        eventsToTasks: events.length,
        named: {
          tasksToEvents: earliestNames(tasks.map(taskName)),
          eventsToTasks: earliestNames(events.map(eventName)),
        },
        mainCalendarWithDefault:
          settings.mainCalendar &&
          (settings.calendarProvider === 'google' ? settings.color === '' : settings.category === null),
      };
    },
  };
}
