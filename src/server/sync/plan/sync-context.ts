import type { IntegrationRow } from '#server/db/schema/integrations.table.ts';
import type { UserRow } from '#server/db/schema/users.table.ts';
import { paymentStateOf } from '#server/domain/billing/payment-state.ts';
import type {
  CalendarSettingsRow,
  LabelsKnown,
  TodoSettingsRow,
} from '#server/domain/settings/settings.repository.ts';
import { isEntitled } from '#shared/billing/subscription-status.ts';
import { AUTOPLAN_DEFAULTS, TODOIST_ACCOUNT_TYPES_WITH_DURATION } from '#shared/settings/constants.ts';
import { DATED_TASKS_DEFAULT } from '#shared/settings/dated-tasks.ts';
import { mainCalendarId } from '#shared/settings/main-calendar.ts';
import { ALL_PROJECTS } from '#shared/settings/project-scope.ts';
import type { SyncSettings } from '../sync-settings.ts';
import { withProjects } from './sync-scope.ts';

/** Why a user's sync does not run now. */
export type SyncBlock =
  | 'no-user'
  | 'switched-off'
  | 'not-entitled'
  | 'not-connected'
  | 'reconnect'
  | 'no-calendar';

export type SyncContext =
  | {
      runnable: true;
      settings: SyncSettings;
      todoistUserId: string | null;
      calendarName: string;
      /** The connected calendar account (its provider's user id). */
      calendarAccountId: string | null;
      /** Both connections as read (the run's provider calls take their tokens from these). */
      connections: IntegrationRow[];
      /** Whether the user has a sync problem raised (false: a run that goes through has none to clear). */
      problemsOpen: boolean;
      /**
       * Whether Todoist's notices left hints of completed occurrences for the run (false: it need not
       * read them).
       */
      hintsWaiting: boolean;
      /** The stored Todoist labels and renames, as read with the settings. */
      labels: LabelsKnown;
    }
  | { runnable: false; block: SyncBlock };

/** What the settings reader loads of one user for a run. */
export type SyncRows = {
  user: UserRow | undefined;
  integrations: IntegrationRow[];
  todo: TodoSettingsRow | undefined;
  calendar: CalendarSettingsRow | undefined;
  timeboxes: { label: string; duration: number }[];
  /** Whether a sync problem is raised (undefined: not read, as good as yes). */
  problemsOpen?: boolean;
  /** Whether hints of completed occurrences wait (undefined: not read, as good as yes). */
  hintsWaiting?: boolean;
  /** The calendar accounts added beside the sync's that Plan my day reads (none when left out). */
  otherAccounts?: SyncSettings['otherAccounts'];
};

/**
 * Whether sync may run for the user now, and with what settings (docs/product-rules.md §10): switched
 * on (unless `evenIfOff`, the preview), entitled (a trial or a paid plan), both sides connected and
 * neither waiting for the user to connect it again, a calendar chosen. Pure: the reader only loads.
 */
export function syncContextOf(rows: SyncRows, now: Date, options: { evenIfOff?: boolean } = {}): SyncContext {
  const { user, todo, calendar, timeboxes } = rows;
  if (!user) return { runnable: false, block: 'no-user' };
  if (!user.syncActive && !options.evenIfOff) return { runnable: false, block: 'switched-off' };
  if (!isEntitled(paymentStateOf(user), now)) return { runnable: false, block: 'not-entitled' };
  const todoist = rows.integrations.find((row) => row.kind === 'todoist');
  const calendarLink = rows.integrations.find((row) => row.kind === 'calendar');
  if (!todoist || !calendarLink || calendarLink.provider === 'todoist')
    return { runnable: false, block: 'not-connected' };
  if (todoist.needsReconnect || calendarLink.needsReconnect) return { runnable: false, block: 'reconnect' };
  if (!calendar?.calendarId) return { runnable: false, block: 'no-calendar' };
  const calendarProvider = calendarLink.provider;
  return {
    runnable: true,
    todoistUserId: todo?.todoistUserId ?? null,
    calendarAccountId: calendarLink.accountId ?? null,
    connections: [todoist, calendarLink],
    problemsOpen: rows.problemsOpen ?? true,
    hintsWaiting: rows.hintsWaiting ?? true,
    labels: { labels: todo?.labels ?? [], renames: todo?.labelRenames ?? [] },
    calendarName:
      calendar.calendars.find((entry) => entry.id === calendar.calendarId)?.name ?? calendar.calendarId,
    settings: withProjects({
      timeZone: todo?.timezone || 'UTC',
      timeboxes,
      taskDuration: {
        active: todo?.taskDurationActive ?? false,
        label: todo?.taskDurationLabel ?? null,
        allowed: (TODOIST_ACCOUNT_TYPES_WITH_DURATION as readonly string[]).includes(todo?.accountType ?? ''),
      },
      calendarProvider,
      calendarId: calendar.calendarId,
      mainCalendar: isMainCalendar(calendarProvider, calendar, calendarLink.accountId),
      color: calendar.color,
      category: calendar.category,
      private: calendar.private,
      reminder: calendar.reminder,
      linkDescription: calendar.todoistLinkDescription,
      onComplete: todo?.onComplete ?? 'nothing',
      onPreComplete: todo?.onPreComplete ?? false,
      datedTasks: todo?.datedTasks ?? DATED_TASKS_DEFAULT,
      autoplan: calendar.autoplan ?? { ...AUTOPLAN_DEFAULTS, days: [...AUTOPLAN_DEFAULTS.days] },
      otherCalendarIds: otherCalendarsOf(calendar),
      otherAccounts: rows.otherAccounts ?? [],
      projects: todo?.projects ?? [],
      projectScope: todo?.projectScope ?? ALL_PROJECTS,
      eventProjectId: todo?.eventProjectId ?? null,
    }),
  };
}

/**
 * The calendars "Plan my day" reads busy times from, besides the chosen one: every other calendar of
 * the account as last listed, those shared with it to read only included (their meetings are the
 * user's too), on Google and Microsoft alike.
 */
function otherCalendarsOf(calendar: Pick<CalendarSettingsRow, 'calendarId' | 'calendars'>): string[] {
  return calendar.calendars.map((entry) => entry.id).filter((id) => id !== calendar.calendarId);
}

/**
 * The account's main calendar is the chosen one (where the switch-on preview warns, and "Plan my day"
 * leaves other calendars out unless the user counts them): Google's primary, Microsoft's default.
 */
function isMainCalendar(
  provider: 'google' | 'microsoft',
  calendar: Pick<CalendarSettingsRow, 'calendarId' | 'calendars'>,
  accountId: string | null,
): boolean {
  // Google's account id is its primary calendar's id, whether or not the list is read yet.
  if (calendar.calendarId === 'primary' || (provider === 'google' && calendar.calendarId === accountId))
    return true;
  return mainCalendarId(provider, calendar.calendars, accountId) === calendar.calendarId;
}
