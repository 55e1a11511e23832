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
  return {
    async load(userId, now, options = {}) {
      // The user with both settings rows in one statement (a run starts with this, every time).
      const [[joined], linked, timeboxes] = await Promise.all([
        db
          .select({
            user: users,
            todo: todoSettings,
            calendar: calendarSettings,
            problemsOpen: sql<boolean>`exists (select 1 from ${syncProblems} where ${syncProblems.userId} = ${users.id})`,
          })
          .from(users)
          .leftJoin(todoSettings, eq(todoSettings.userId, users.id))
          .leftJoin(calendarSettings, eq(calendarSettings.userId, users.id))
          .where(eq(users.id, userId)),
        db.select().from(integrations).where(eq(integrations.userId, userId)),
        db
          .select({ label: timeboxSettings.label, duration: timeboxSettings.duration })
          .from(timeboxSettings)
          .where(eq(timeboxSettings.userId, userId))
          .orderBy(asc(timeboxSettings.duration)),
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
