import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { AutoplanPreview, ChangePreview, SyncPreview } from '#shared/api/sync.schema.ts';
import type { CalendarTarget } from '../calendar-target.port.ts';
import { autoplanWork, planAutoplan } from '../plan/autoplan/autoplan-step.ts';
import { changeEffect, type ProposedChange } from '../plan/change-effect.ts';
import { titleHasher } from '../plan/event-title.ts';
import { type BrakeThresholds, DEFAULT_BRAKE } from '../plan/removal-brake.ts';
import { eventWanted, taskWanted } from '../plan/sync-scope.ts';
import { localDate } from '../plan/timebox-when.ts';
import type { SyncLinkRepository } from '../store/sync-link.repository.ts';
import type { SyncSettingsReader } from '../store/sync-settings.repository.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { TaskSource } from '../task-source.port.ts';
import type { WithToken } from '../with-token.ts';

export type SyncPreviewService = ReturnType<typeof createSyncPreview>;

/** "Plan my day"'s preview covers today and the 6 days after it. */
const PREVIEW_DAYS = 7;

/**
 * What switching sync on would do, counted with the engine's own scope rules on a full read of both
 * sides. Reads only: nothing is written and no read position is kept.
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
}) {
  /** Both sides read in full with the user's settings (sync on or off); null when it could not run. */
  async function readBoth(userId: string, now: Date) {
    const context = await deps.settings.load(userId, now, { evenIfOff: true });
    if (!context.runnable) return null;
    const settings = { ...context.settings };
    const calendar = deps.calendars[settings.calendarProvider];
    if (!calendar) return null;
    const [taskRead, calendarRead] = await Promise.all([
      deps.withToken(userId, 'todoist', (token) => deps.tasks.changes(token, null)),
      deps.withToken(userId, 'calendar', (token) => calendar.changes(token, settings.calendarId, null)),
    ]);
    if (taskRead.timeZone) settings.timeZone = taskRead.timeZone;
    return { context, settings, calendar, tasks: taskRead.tasks, events: calendarRead.events };
  }

  return {
    /**
     * What `change` would do to what is already synced (null when sync could not run: nothing is
     * synced to change). Reads both sides in full with the user's current settings; writes nothing.
     */
    async previewChange(userId: string, change: ProposedChange): Promise<ChangePreview | null> {
      const now = deps.clock();
      const [read, links, state] = await Promise.all([
        readBoth(userId, now),
        deps.links.all(userId),
        deps.states.find(userId),
      ]);
      if (!read) return null;
      const { settings, calendar } = read;
      const newCalendar =
        change.kind === 'calendar' && change.calendarId !== settings.calendarId
          ? await deps.withToken(userId, 'calendar', (token) =>
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

    /**
     * Where "Plan my day" would place the dated tasks of the next 7 days with the working hours as saved
     * (on or off), and what would not fit: Todoist read in full, the calendar over those days. Writes
     * nothing. Null when the sync could not run (nothing connected or chosen).
     */
    async previewAutoplan(userId: string): Promise<AutoplanPreview | null> {
      const now = deps.clock();
      const context = await deps.settings.load(userId, now, { evenIfOff: true });
      if (!context.runnable) return null;
      const calendar = deps.calendars[context.settings.calendarProvider];
      if (!calendar) return null;
      const read = await deps.withToken(userId, 'todoist', (token) => deps.tasks.changes(token, null));
      const settings = {
        ...context.settings,
        ...(read.timeZone && { timeZone: read.timeZone }),
        autoplan: { ...context.settings.autoplan, active: true },
      };
      const lastDay = localDate(new Date(now.getTime() + (PREVIEW_DAYS - 1) * 86_400_000), settings.timeZone);
      const tasks = read.tasks.filter((task) => (task.due?.date ?? '') <= lastDay);
      const input = { settings, now, tasks, events: [], links: [], kept: null };
      const work = autoplanWork(input);
      if (!work || work.tasks.length === 0) return { placements: [], unplaced: [] };
      const window = await deps.withToken(userId, 'calendar', (token) =>
        calendar.eventsBetween(token, settings.calendarId, work.from, work.to),
      );
      const others = settings.autoplan.otherCalendarsBusy ? settings.otherCalendarIds : [];
      const elsewhere =
        others.length > 0
          ? await deps.withToken(userId, 'calendar', (token) =>
              calendar.busyElsewhere(token, others, work.from, work.to),
            )
          : [];
      const plan = planAutoplan(input, work, window, elsewhere);
      const title = (taskId: string) => tasks.find((task) => task.id === taskId)?.content ?? '';
      return {
        placements: plan.kept.placements.map((block) => ({ ...block, title: title(block.taskId) })),
        unplaced: plan.unplacedDays.map((day) => ({
          date: day.date,
          minutes: day.minutes,
          tasks: day.taskIds.map((taskId) => ({ taskId, title: title(taskId) })),
        })),
      };
    },

    async preview(userId: string): Promise<SyncPreview | null> {
      const now = deps.clock();
      const read = await readBoth(userId, now);
      if (!read) return null;
      const { settings } = read;
      return {
        calendar: { id: settings.calendarId, name: read.context.calendarName },
        tasksToEvents: read.tasks.filter((task) => taskWanted(task, settings, now)).length,
        eventsToTasks: read.events.filter((event) => eventWanted(event, settings, now)).length,
        mainCalendarWithDefault:
          settings.mainCalendar &&
          (settings.calendarProvider === 'google' ? settings.color === '' : settings.category === null),
      };
    },
  };
}
