import type { Logger } from 'pino';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { AutoplanPreview } from '#shared/api/sync.schema.ts';
import type { CalendarTarget } from '../calendar-target.port.ts';
import {
  autoplanWork,
  busyCalendarIds,
  otherAccountsCount,
  planAutoplan,
} from '../plan/autoplan/autoplan-step.ts';
import { localDate } from '../plan/timebox-when.ts';
import { busyInOtherAccounts } from '../run/other-accounts-busy.ts';
import type { OtherAccountsReader } from '../store/other-accounts.reader.ts';
import type { SyncSettingsReader } from '../store/sync-settings.repository.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { TaskSource } from '../task-source.port.ts';
import { type PreviewReads, syncStateVersion } from './preview-reads.ts';

/** "Plan my day"'s preview covers today and the 6 days after it. */
const PREVIEW_DAYS = 7;

export type AutoplanPreviewDeps = {
  settings: SyncSettingsReader;
  tasks: TaskSource;
  calendars: Record<'google' | 'microsoft', CalendarTarget | null>;
  reads: PreviewReads;
  states: Pick<SyncStateRepository, 'find'>;
  /** The accounts added beside the sync's, whose busy times count as a run counts them (none without). */
  otherAccounts?: OtherAccountsReader | undefined;
  log: Logger;
  clock: Clock;
};

/**
 * Where "Plan my day" would place the dated tasks of the next 7 days with the working hours as saved
 * (on or off), and what would not fit: Todoist read in full, the calendar over those days, and the
 * busy times a run would count (the account's other calendars, the added accounts' calendars, with the
 * run's own rules). Writes nothing. Null when the sync could not run (nothing connected or chosen).
 */
export async function previewAutoplan(
  deps: AutoplanPreviewDeps,
  userId: string,
): Promise<AutoplanPreview | null> {
  const now = deps.clock();
  const [context, state] = await Promise.all([
    deps.settings.load(userId, now, { evenIfOff: true }),
    deps.states.find(userId),
  ]);
  if (!context.runnable) return null;
  const calendar = deps.calendars[context.settings.calendarProvider];
  if (!calendar) return null;
  const fromProvider = deps.reads.forPreview(
    userId,
    context.settings.calendarProvider,
    syncStateVersion(state),
  );
  const read = await fromProvider('todoist', 'todoist', (token) => deps.tasks.changes(token, null));
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
  const span = `${work.from.toISOString()} ${work.to.toISOString()}`;
  const window = await fromProvider(`window ${settings.calendarId} ${span}`, 'calendar', (token) =>
    calendar.eventsBetween(token, settings.calendarId, work.from, work.to),
  );
  const others = busyCalendarIds(settings);
  const elsewhere =
    others.length > 0
      ? await fromProvider(`busy ${others.join(' ')} ${span}`, 'calendar', (token) =>
          calendar.busyElsewhere(token, others, work.from, work.to),
        )
      : [];
  const inOtherAccounts =
    deps.otherAccounts && otherAccountsCount(settings)
      ? await busyInOtherAccounts(
          {
            otherAccounts: deps.otherAccounts,
            calendars: deps.calendars,
            withAccountToken: (provider) => fromProvider.account(provider, `busy ${span}`),
            log: deps.log,
          },
          userId,
          work.from,
          work.to,
        )
      : [];
  const plan = planAutoplan(input, work, window, [...elsewhere, ...inOtherAccounts]);
  const title = (taskId: string) => tasks.find((task) => task.id === taskId)?.content ?? '';
  return {
    placements: plan.kept.placements.map((block) => ({ ...block, title: title(block.taskId) })),
    unplaced: plan.unplacedDays.map((day) => ({
      date: day.date,
      minutes: day.minutes,
      tasks: day.taskIds.map((taskId) => ({ taskId, title: title(taskId) })),
    })),
  };
}
