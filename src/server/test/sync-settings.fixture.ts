import { withProjects } from '#server/sync/plan/sync-scope.ts';
import type { SyncSettings } from '#server/sync/sync-settings.ts';
import { AUTOPLAN_DEFAULTS } from '#shared/settings/constants.ts';
import { ALL_PROJECTS } from '#shared/settings/project-scope.ts';

/** A user's sync settings for the sync's unit tests: Berlin, 30- and 60-minute timeboxes, Google's primary calendar. */
export function syncSettings(overrides: Partial<Omit<SyncSettings, 'projectsInScope'>> = {}): SyncSettings {
  return withProjects({
    timeZone: 'Europe/Berlin',
    timeboxes: [
      { label: '30min', duration: 30 },
      { label: '1h', duration: 60 },
    ],
    taskDuration: { active: false, label: null, allowed: false },
    calendarProvider: 'google',
    calendarId: 'primary',
    mainCalendar: true,
    color: '',
    category: null,
    private: false,
    reminder: null,
    linkDescription: false,
    onComplete: 'nothing',
    onPreComplete: false,
    projects: [],
    projectScope: ALL_PROJECTS,
    eventProjectId: null,
    datedTasks: 'skip',
    autoplan: { ...AUTOPLAN_DEFAULTS, days: [...AUTOPLAN_DEFAULTS.days] },
    otherCalendarIds: [],
    otherAccounts: [],
    ...overrides,
  });
}
