import type { OnComplete } from '#shared/settings/constants.ts';
import type { DatedTasksSetting } from '#shared/settings/dated-tasks.ts';
import type { ProjectScope, TodoistProject } from '#shared/settings/project-scope.ts';
import type { Autoplan } from '#shared/settings/settings.schema.ts';

/** Everything a sync run needs to know of the user's choices, read once per run. */
export type SyncSettings = {
  /** The Todoist user's time zone: floating due times are read and written in it. */
  timeZone: string;
  timeboxes: { label: string; duration: number }[];
  /** Todoist's own duration field as the length: only with Premium or Business. */
  taskDuration: { active: boolean; label: string | null; allowed: boolean };
  calendarProvider: 'google' | 'microsoft';
  calendarId: string;
  /** The user's main calendar (Google primary / Microsoft default). */
  mainCalendar: boolean;
  color: string;
  category: string | null;
  private: boolean;
  reminder: number | null;
  linkDescription: boolean;
  onComplete: OnComplete;
  onPreComplete: boolean;
  /** Tasks with a date but no time: left alone ('skip'), or all-day events when timeboxed ('allday'). */
  datedTasks: DatedTasksSetting;
  /** "Plan my day": working hours, the gap, whether other calendars count as busy; off by default. */
  autoplan: Autoplan;
  /**
   * The calendars whose busy times "Plan my day" asks for when other calendars count (see
   * `otherCalendarsOf`): every other calendar of the account, on Google and Microsoft alike.
   */
  otherCalendarIds: string[];
  /**
   * The calendar accounts added beside the sync's whose busy times "Plan my day" reads (decision 028;
   * not those waiting to be connected again), each with its calendars as last listed: the placed blocks
   * are settled against them too (`autoplanKey`).
   */
  otherAccounts: { id: string; calendarIds: string[] }[];
  /** The account's active projects as last read (empty: not known yet). */
  projects: TodoistProject[];
  projectScope: ProjectScope;
  /** Where new tasks from events go (null: the Inbox); see `projectForNewTasks`. */
  eventProjectId: string | null;
  /**
   * The projects whose tasks sync, from the three above (see `withProjects`); null: every task, as no
   * project list is known yet.
   */
  projectsInScope: ReadonlySet<string> | null;
};
