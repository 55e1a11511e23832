import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { calendarSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import type { CalendarCategory, CalendarEntry, TodoistLabel } from './integration-providers.ts';

export type IntegrationSettingsRepository = ReturnType<typeof createIntegrationSettingsRepository>;

/**
 * Writes what the integrations own in the settings tables (what the providers told us about the
 * account), leaving the user's own choices alone; and switches sync off when an integration goes.
 */
export function createIntegrationSettingsRepository(db: Db) {
  return {
    async labels(userId: string): Promise<TodoistLabel[]> {
      const [row] = await db
        .select({ labels: todoSettings.labels })
        .from(todoSettings)
        .where(eq(todoSettings.userId, userId));
      return row?.labels ?? [];
    },

    async saveTodoistAccount(
      userId: string,
      account: {
        accountType: string;
        todoistUserId: string;
        timezone: string | null;
        labels: TodoistLabel[];
      },
      now: Date,
    ): Promise<void> {
      const values = { ...account, updatedAt: now };
      await db
        .insert(todoSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: todoSettings.userId, set: values });
    },

    async saveTodoistLabels(userId: string, labels: TodoistLabel[], now: Date): Promise<void> {
      await db
        .insert(todoSettings)
        .values({ userId, labels, updatedAt: now })
        .onConflictDoUpdate({ target: todoSettings.userId, set: { labels, updatedAt: now } });
    },

    async saveCalendarAccount(
      userId: string,
      account: { calendars: CalendarEntry[]; categories: CalendarCategory[] },
      now: Date,
    ): Promise<void> {
      const values = { ...account, updatedAt: now };
      await db
        .insert(calendarSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: calendarSettings.userId, set: values });
    },

    /** Another calendar provider: the chosen calendar, colour and category meant the old one. */
    async forgetCalendarChoice(userId: string, now: Date): Promise<void> {
      await db
        .update(calendarSettings)
        .set({ calendarId: null, calendars: [], categories: [], color: '', category: null, updatedAt: now })
        .where(eq(calendarSettings.userId, userId));
    },

    async stopSync(userId: string, now: Date): Promise<void> {
      await db.update(users).set({ syncActive: false, updatedAt: now }).where(eq(users.id, userId));
    },
  };
}
