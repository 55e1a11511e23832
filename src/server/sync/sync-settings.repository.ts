import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { calendarSettings, timeboxSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import { isEntitled, type PaymentState } from '#shared/billing/subscription-status.ts';
import { TODOIST_ACCOUNT_TYPES_WITH_DURATION } from '#shared/settings/constants.ts';
import type { SyncSettings } from './sync-settings.ts';

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
    }
  | { runnable: false; block: SyncBlock };

export type SyncSettingsReader = {
  /** Reads the user's choices and says whether sync may run for them now (checked before every run). */
  load(userId: string, now: Date, options?: { evenIfOff?: boolean }): Promise<SyncContext>;
  /** Our users by Todoist account id (webhooks name only Todoist's user); unknown ids are left out. */
  usersByTodoistIds(todoistUserIds: readonly string[]): Promise<Map<string, string>>;
  /** Every user with sync switched on (the periodic reconcile visits them). */
  activeUsers(): Promise<string[]>;
};

export function createSyncSettingsReader(db: Db): SyncSettingsReader {
  return {
    async load(userId, now, options = {}) {
      const [[user], linked, [todo], [calendar], timeboxes] = await Promise.all([
        db.select().from(users).where(eq(users.id, userId)),
        db.select().from(integrations).where(eq(integrations.userId, userId)),
        db.select().from(todoSettings).where(eq(todoSettings.userId, userId)),
        db.select().from(calendarSettings).where(eq(calendarSettings.userId, userId)),
        db
          .select({ label: timeboxSettings.label, duration: timeboxSettings.duration })
          .from(timeboxSettings)
          .where(eq(timeboxSettings.userId, userId))
          .orderBy(asc(timeboxSettings.duration)),
      ]);
      if (!user) return { runnable: false, block: 'no-user' };
      if (!user.syncActive && !options.evenIfOff) return { runnable: false, block: 'switched-off' };
      const payment: PaymentState = {
        validUntil: user.validUntil.toISOString(),
        subscriptionStatus: user.subscriptionStatus as PaymentState['subscriptionStatus'],
        plan: {
          interval: user.planInterval === 'month' || user.planInterval === 'year' ? user.planInterval : null,
        },
        canceled: user.canceled,
      };
      if (!isEntitled(payment, now)) return { runnable: false, block: 'not-entitled' };
      const todoist = linked.find((row) => row.kind === 'todoist');
      const calendarLink = linked.find((row) => row.kind === 'calendar');
      if (!todoist || !calendarLink || calendarLink.provider === 'todoist')
        return { runnable: false, block: 'not-connected' };
      if (todoist.needsReconnect || calendarLink.needsReconnect)
        return { runnable: false, block: 'reconnect' };
      if (!calendar?.calendarId) return { runnable: false, block: 'no-calendar' };
      const calendarProvider = calendarLink.provider;
      return {
        runnable: true,
        todoistUserId: todo?.todoistUserId ?? null,
        calendarAccountId: calendarLink.accountId ?? null,
        calendarName:
          calendar.calendars.find((entry) => entry.id === calendar.calendarId)?.name ?? calendar.calendarId,
        settings: {
          timeZone: todo?.timezone || 'UTC',
          timeboxes,
          taskDuration: {
            active: todo?.taskDurationActive ?? false,
            label: todo?.taskDurationLabel ?? null,
            allowed: (TODOIST_ACCOUNT_TYPES_WITH_DURATION as readonly string[]).includes(
              todo?.accountType ?? '',
            ),
          },
          calendarProvider,
          calendarId: calendar.calendarId,
          mainCalendar:
            calendar.calendarId === calendarLink.accountId ||
            calendar.calendarId === 'primary' ||
            (calendarProvider === 'microsoft' && calendar.calendars[0]?.id === calendar.calendarId),
          color: calendar.color,
          category: calendar.category,
          private: calendar.private,
          reminder: calendar.reminder,
          linkDescription: calendar.todoistLinkDescription,
          onComplete: todo?.onComplete ?? 'nothing',
          onPreComplete: todo?.onPreComplete ?? false,
        },
      };
    },

    async usersByTodoistIds(todoistUserIds) {
      if (todoistUserIds.length === 0) return new Map();
      const rows = await db
        .select({ userId: todoSettings.userId, todoistUserId: todoSettings.todoistUserId })
        .from(todoSettings)
        .where(inArray(todoSettings.todoistUserId, [...todoistUserIds]));
      return new Map(rows.flatMap((row) => (row.todoistUserId ? [[row.todoistUserId, row.userId]] : [])));
    },

    async activeUsers() {
      const rows = await db.select({ id: users.id }).from(users).where(eq(users.syncActive, true));
      return rows.map((row) => row.id);
    },
  };
}
