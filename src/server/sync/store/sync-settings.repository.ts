import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { calendarSettings, timeboxSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { syncProblems } from '#server/db/schema/sync.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import { type SyncContext, syncContextOf } from '../plan/sync-context.ts';

export type SyncSettingsReader = {
  /** Reads the user's choices and says whether sync may run for them now (checked before every run). */
  load(userId: string, now: Date, options?: { evenIfOff?: boolean }): Promise<SyncContext>;
  /** Our users by Todoist account id (webhooks name only Todoist's user); unknown ids are left out. */
  usersByTodoistIds(todoistUserIds: readonly string[]): Promise<Map<string, string>>;
  /** Every user with sync switched on (the periodic reconcile visits them). */
  activeUsers(): Promise<string[]>;
};

export function createSyncSettingsReader(db: Db): SyncSettingsReader {
  // A run starts with these, every time: built once, prepared by name (no query building per run).
  const byUser = sql.placeholder('userId');
  const userWithSettings = db
    .select({
      user: users,
      todo: todoSettings,
      calendar: calendarSettings,
      problemsOpen: sql<boolean>`exists (select 1 from ${syncProblems} where ${syncProblems.userId} = ${users.id})`,
    })
    .from(users)
    .leftJoin(todoSettings, eq(todoSettings.userId, users.id))
    .leftJoin(calendarSettings, eq(calendarSettings.userId, users.id))
    .where(eq(users.id, byUser))
    .prepare('sync_user_with_settings');
  const userIntegrations = db
    .select()
    .from(integrations)
    .where(eq(integrations.userId, byUser))
    .prepare('sync_user_integrations');
  const userTimeboxes = db
    .select({ label: timeboxSettings.label, duration: timeboxSettings.duration })
    .from(timeboxSettings)
    .where(eq(timeboxSettings.userId, byUser))
    .orderBy(asc(timeboxSettings.duration))
    .prepare('sync_user_timeboxes');
  return {
    async load(userId, now, options = {}) {
      // The user with both settings rows in one statement, their accounts and timeboxes beside it.
      const [[joined], linked, timeboxes] = await Promise.all([
        userWithSettings.execute({ userId }),
        userIntegrations.execute({ userId }),
        userTimeboxes.execute({ userId }),
      ]);
      const rows = {
        user: joined?.user,
        integrations: linked,
        todo: joined?.todo ?? undefined,
        calendar: joined?.calendar ?? undefined,
        timeboxes,
        problemsOpen: joined?.problemsOpen,
      };
      return syncContextOf(rows, now, options);
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
