import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { calendarSettings, timeboxSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { users } from '#server/db/schema/users.table.ts';

type TodoPatch = Partial<Omit<typeof todoSettings.$inferInsert, 'userId'>>;
type CalendarPatch = Partial<Omit<typeof calendarSettings.$inferInsert, 'userId'>>;

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

/** Reads and writes the settings tables of one user at a time; every query is scoped by user id. */
export function createSettingsRepository(db: Db) {
  const sameLabel = (userId: string, label: string) =>
    and(eq(timeboxSettings.userId, userId), sql`lower(${timeboxSettings.label}) = lower(${label})`);

  return {
    async readiness(userId: string) {
      const [linked, [todo], [calendar], [{ count } = { count: 0 }]] = await Promise.all([
        db.select().from(integrations).where(eq(integrations.userId, userId)),
        db.select().from(todoSettings).where(eq(todoSettings.userId, userId)),
        db.select().from(calendarSettings).where(eq(calendarSettings.userId, userId)),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(timeboxSettings)
          .where(eq(timeboxSettings.userId, userId)),
      ]);
      return {
        todoistConnected: linked.some((row) => row.kind === 'todoist' && !row.needsReconnect),
        calendarConnected: linked.some((row) => row.kind === 'calendar' && !row.needsReconnect),
        calendarProvider: linked.find((row) => row.kind === 'calendar')?.provider ?? null,
        todo,
        calendar,
        timeboxCount: Number(count),
      };
    },

    async timeboxLabels(userId: string): Promise<string[]> {
      const rows = await db
        .select({ label: timeboxSettings.label })
        .from(timeboxSettings)
        .where(eq(timeboxSettings.userId, userId));
      return rows.map((row) => row.label);
    },

    async addTimebox(userId: string, label: string, duration: number): Promise<void> {
      await db.insert(timeboxSettings).values({ userId, label, duration });
    },

    async updateTimebox(userId: string, label: string, newLabel: string, duration: number): Promise<boolean> {
      const updated = await db
        .update(timeboxSettings)
        .set({ label: newLabel, duration })
        .where(sameLabel(userId, label))
        .returning({ label: timeboxSettings.label });
      return updated.length > 0;
    },

    async deleteTimebox(userId: string, label: string): Promise<boolean> {
      const deleted = await db
        .delete(timeboxSettings)
        .where(sameLabel(userId, label))
        .returning({ label: timeboxSettings.label });
      return deleted.length > 0;
    },

    async patchTodo(userId: string, patch: TodoPatch, now: Date): Promise<void> {
      await db
        .insert(todoSettings)
        .values({ userId, ...patch, updatedAt: now })
        .onConflictDoUpdate({ target: todoSettings.userId, set: { ...patch, updatedAt: now } });
    },

    async patchCalendar(userId: string, patch: CalendarPatch, now: Date): Promise<void> {
      await db
        .update(calendarSettings)
        .set({ ...patch, updatedAt: now })
        .where(eq(calendarSettings.userId, userId));
    },

    async patchUser(
      userId: string,
      patch: { syncActive?: boolean; welcomeWizardSeen?: boolean },
      now: Date,
    ): Promise<void> {
      await db
        .update(users)
        .set({ ...patch, updatedAt: now })
        .where(eq(users.id, userId));
    },
  };
}
