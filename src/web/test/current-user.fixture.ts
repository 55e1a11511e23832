import type { CalendarSettings, CurrentUser, TodoSettings } from '#shared/api/current-user.schema.ts';
import { AUTOPLAN_DEFAULTS } from '#shared/settings/constants.ts';

type Overrides = {
  user?: Partial<Omit<CurrentUser, 'todoSettings' | 'calendarSettings'>>;
  todo?: Partial<TodoSettings>;
  calendar?: Partial<CalendarSettings>;
};

/** A signed-in user with nothing connected, for unit tests; override what a test is about. */
export function testUser({ user, todo, calendar }: Overrides = {}): CurrentUser {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: { firstName: 'Ada', displayName: 'Ada Lovelace' },
    email: 'ada@example.com',
    googleId: 'g-1',
    facebookId: null,
    syncActive: false,
    welcomeWizardSeen: true,
    notices: { mails: true, resolvedMails: false },
    payment: {
      validUntil: '2031-01-01T00:00:00.000Z',
      subscriptionStatus: 'trial',
      plan: { interval: null },
      canceled: false,
      trialing: false,
    },
    ...user,
    todoSettings: {
      provider: null,
      connected: false,
      needsReconnect: false,
      accountType: null,
      userId: null,
      timezone: null,
      labels: [],
      timeboxSettings: [],
      taskDurationSettings: { active: false, label: null },
      onComplete: 'nothing',
      onPreComplete: false,
      projects: [],
      projectScope: { mode: 'all', projectIds: [], missing: [] },
      eventProjectId: null,
      datedTasks: 'skip',
      ...todo,
    },
    calendarSettings: {
      provider: null,
      connected: false,
      needsReconnect: false,
      calendarId: null,
      calendars: [],
      categories: [],
      color: '',
      category: null,
      private: false,
      todoistLinkDescription: false,
      reminder: null,
      autoplan: { ...AUTOPLAN_DEFAULTS, days: [...AUTOPLAN_DEFAULTS.days] },
      accounts: [],
      ...calendar,
    },
  };
}
