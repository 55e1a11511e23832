import type { IntegrationRow } from '#server/db/schema/integrations.table.ts';
import type {
  calendarSettings,
  StoredCalendar,
  timeboxSettings,
  todoSettings,
} from '#server/db/schema/settings.tables.ts';
import type { UserRow } from '#server/db/schema/users.table.ts';
import { type CurrentUser, currentUserSchema } from '#shared/api/current-user.schema.ts';
import { AUTOPLAN_DEFAULTS } from '#shared/settings/constants.ts';
import { DATED_TASKS_DEFAULT } from '#shared/settings/dated-tasks.ts';
import { mainCalendarId } from '#shared/settings/main-calendar.ts';
import { ALL_PROJECTS, missingProjects, projectTree } from '#shared/settings/project-scope.ts';
import { sortLabels, sortTimeboxes } from '#shared/settings/rules.ts';

/** Everything stored about a user that the web app may see. */
export type AccountRows = {
  user: UserRow;
  /** Every connected account, each kind's sync account (position 0) first. */
  integrations: (Pick<IntegrationRow, 'kind' | 'provider' | 'needsReconnect'> &
    Partial<Pick<IntegrationRow, 'id' | 'position' | 'accountId' | 'email' | 'calendars'>>)[];
  todo: typeof todoSettings.$inferSelect | undefined;
  timeboxes: Pick<typeof timeboxSettings.$inferSelect, 'label' | 'duration'>[];
  calendar: typeof calendarSettings.$inferSelect | undefined;
};

const CALENDAR_PROVIDER_NAMES = { google: 'Google Calendar', microsoft: 'Microsoft' } as const;

/** The user as the web app sees it: the shape of docs/product-rules.md §3, no secrets. */
export function toCurrentUser({ user, integrations, todo, timeboxes, calendar }: AccountRows): CurrentUser {
  const todoist = integrations.find((integration) => integration.kind === 'todoist');
  const calendarAccount = integrations.find(
    (integration) => integration.kind === 'calendar' && (integration.position ?? 0) === 0,
  );
  const calendarProvider =
    calendarAccount && (calendarAccount.provider === 'google' || calendarAccount.provider === 'microsoft')
      ? CALENDAR_PROVIDER_NAMES[calendarAccount.provider]
      : null;
  return currentUserSchema.parse({
    id: user.id,
    name: { firstName: user.firstName, displayName: user.displayName },
    email: user.email,
    googleId: user.googleId,
    facebookId: user.facebookId,
    syncActive: user.syncActive,
    welcomeWizardSeen: user.welcomeWizardSeen,
    notices: { mails: user.noticeMails, resolvedMails: user.noticeMailsResolved },
    payment: {
      validUntil: user.validUntil.toISOString(),
      subscriptionStatus: user.subscriptionStatus,
      plan: { interval: user.planInterval },
      canceled: user.canceled,
      trialing: user.trialing,
    },
    todoSettings: {
      provider: todoist ? 'Todoist' : null,
      connected: !!todoist,
      needsReconnect: todoist?.needsReconnect ?? false,
      accountType: todo?.accountType ?? null,
      userId: todo?.todoistUserId ?? null,
      timezone: todo?.timezone ? { timezone: todo.timezone } : null,
      labels: sortLabels(todo?.labels ?? []),
      timeboxSettings: sortTimeboxes(timeboxes.map(({ label, duration }) => ({ label, duration }))),
      taskDurationSettings: {
        active: todo?.taskDurationActive ?? false,
        label: todo?.taskDurationLabel ?? null,
      },
      onComplete: todo?.onComplete ?? 'nothing',
      onPreComplete: todo?.onPreComplete ?? false,
      ...projectSettings(todo),
    },
    calendarSettings: {
      provider: calendarProvider,
      connected: !!calendarAccount,
      needsReconnect: calendarAccount?.needsReconnect ?? false,
      calendarId: calendar?.calendarId ?? null,
      calendars: listedCalendars(calendarAccount?.provider, calendar?.calendars ?? []),
      categories: calendar?.categories ?? [],
      color: calendar?.color ?? '',
      category: calendar?.category ?? null,
      private: calendar?.private ?? false,
      todoistLinkDescription: calendar?.todoistLinkDescription ?? false,
      reminder: calendar?.reminder ?? null,
      autoplan: calendar?.autoplan ?? { ...AUTOPLAN_DEFAULTS, days: [...AUTOPLAN_DEFAULTS.days] },
      accounts: calendarAccounts(integrations, calendar?.calendars ?? []),
    },
  });
}

/**
 * The connected calendar accounts, the sync's first (its calendars are those of the calendar settings),
 * then the added ones with the calendars last listed for each.
 */
function calendarAccounts(integrations: AccountRows['integrations'], syncCalendars: StoredCalendar[]) {
  return integrations
    .filter((row) => row.kind === 'calendar' && row.id && row.provider !== 'todoist')
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .map((row) => {
      const sync = (row.position ?? 0) === 0;
      return {
        id: row.id,
        provider: row.provider,
        email: row.email ?? null,
        sync,
        needsReconnect: row.needsReconnect,
        calendars: listedCalendars(
          row.provider,
          sync ? syncCalendars : (row.calendars ?? []),
          row.accountId,
        ).map(({ id, name, primary, readOnly }) => ({ id, name, primary, canWrite: !readOnly })),
      };
    });
}

/** The account's calendars, the main one marked (a list stored before the mark: as `mainCalendarId` guesses). */
function listedCalendars(
  provider: string | undefined,
  calendars: StoredCalendar[],
  accountId?: string | null,
) {
  const main = mainCalendarId(
    provider === 'microsoft' ? 'microsoft' : 'google',
    calendars,
    accountId ?? null,
  );
  return calendars.map(({ id, name, color, timeZone, readOnly }) => ({
    id,
    name,
    color,
    timeZone,
    primary: id === main,
    readOnly: readOnly === true,
  }));
}

/** The projects as the settings screen lists them, which of them sync, and where new tasks go. */
function projectSettings(todo: AccountRows['todo']) {
  const projects = projectTree(todo?.projects ?? []).map(({ project }) => project);
  const scope = todo?.projectScope ?? ALL_PROJECTS;
  return {
    projects,
    projectScope: {
      mode: scope.mode,
      projectIds: scope.projects.map((chosen) => chosen.id),
      missing: missingProjects(projects, scope),
    },
    eventProjectId: todo?.eventProjectId ?? null,
    datedTasks: todo?.datedTasks ?? DATED_TASKS_DEFAULT,
  };
}
