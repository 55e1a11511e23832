import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { type IntegrationRow, integrations } from '#server/db/schema/integrations.table.ts';
import {
  calendarSettings,
  type StoredCalendar,
  type StoredCategory,
  type StoredTodoistLabel,
  timeboxSettings,
  todoSettings,
} from '#server/db/schema/settings.tables.ts';
import { isConnected } from '#shared/settings/rules.ts';

export type TodoSettingsRow = typeof todoSettings.$inferSelect;
export type CalendarSettingsRow = typeof calendarSettings.$inferSelect;
/** The user's own Todoist-side choices. */
export type TodoPatch = Partial<
  Pick<TodoSettingsRow, 'taskDurationActive' | 'taskDurationLabel' | 'onComplete' | 'onPreComplete'>
>;
/** The user's own calendar-side choices. */
export type CalendarPatch = Partial<
  Pick<
    CalendarSettingsRow,
    'calendarId' | 'color' | 'category' | 'private' | 'todoistLinkDescription' | 'reminder'
  >
>;
/** What Todoist told us about the account. */
export type TodoistAccount = {
  accountType: string;
  todoistUserId: string;
  timezone: string | null;
  labels: StoredTodoistLabel[];
};
/** What the calendar provider told us about the account. */
export type CalendarAccount = { calendars: StoredCalendar[]; categories: StoredCategory[] };

/** What the settings rules need to know before a change. */
export type SettingsReadiness = {
  todoistConnected: boolean;
  calendarConnected: boolean;
  calendarProvider: IntegrationRow['provider'] | null;
  todo: TodoSettingsRow | undefined;
  calendar: CalendarSettingsRow | undefined;
  timeboxCount: number;
};

/**
 * The one writer of `todo_settings`, `timebox_settings` and `calendar_settings`: the user's choices
 * (settings service) and what the providers told us about the accounts (integration services).
 */
export type SettingsRepository = {
  readiness(userId: string): Promise<SettingsReadiness>;
  timeboxLabels(userId: string): Promise<string[]>;
  addTimebox(userId: string, label: string, duration: number, now: Date): Promise<void>;
  /** False when the user has no timebox with that label (any letter case). */
  updateTimebox(userId: string, label: string, newLabel: string, duration: number): Promise<boolean>;
  deleteTimebox(userId: string, label: string): Promise<boolean>;
  patchTodo(userId: string, patch: TodoPatch, now: Date): Promise<void>;
  patchCalendar(userId: string, patch: CalendarPatch, now: Date): Promise<void>;
  /** The Todoist labels as last read from Todoist. */
  labels(userId: string): Promise<StoredTodoistLabel[]>;
  saveTodoistAccount(userId: string, account: TodoistAccount, now: Date): Promise<void>;
  saveTodoistLabels(userId: string, labels: StoredTodoistLabel[], now: Date): Promise<void>;
  saveCalendarAccount(userId: string, account: CalendarAccount, now: Date): Promise<void>;
  /** Another calendar provider: the chosen calendar, colour and category meant the old one. */
  forgetCalendarChoice(userId: string, now: Date): Promise<void>;
};

/** Reads and writes the settings tables of one user at a time; every query is scoped by user id. */
export function createSettingsRepository(db: Db): SettingsRepository {
  const sameLabel = (userId: string, label: string) =>
    and(eq(timeboxSettings.userId, userId), sql`lower(${timeboxSettings.label}) = lower(${label})`);

  return {
    async readiness(userId) {
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
        todoistConnected: isConnected(linked.find((row) => row.kind === 'todoist')),
        calendarConnected: isConnected(linked.find((row) => row.kind === 'calendar')),
        calendarProvider: linked.find((row) => row.kind === 'calendar')?.provider ?? null,
        todo,
        calendar,
        timeboxCount: Number(count),
      };
    },

    async timeboxLabels(userId) {
      const rows = await db
        .select({ label: timeboxSettings.label })
        .from(timeboxSettings)
        .where(eq(timeboxSettings.userId, userId));
      return rows.map((row) => row.label);
    },

    async addTimebox(userId, label, duration, now) {
      await db.insert(timeboxSettings).values({ userId, label, duration, createdAt: now });
    },

    async updateTimebox(userId, label, newLabel, duration) {
      const updated = await db
        .update(timeboxSettings)
        .set({ label: newLabel, duration })
        .where(sameLabel(userId, label))
        .returning({ label: timeboxSettings.label });
      return updated.length > 0;
    },

    async deleteTimebox(userId, label) {
      const deleted = await db
        .delete(timeboxSettings)
        .where(sameLabel(userId, label))
        .returning({ label: timeboxSettings.label });
      return deleted.length > 0;
    },

    async patchTodo(userId, patch, now) {
      await db
        .insert(todoSettings)
        .values({ userId, ...patch, updatedAt: now })
        .onConflictDoUpdate({ target: todoSettings.userId, set: { ...patch, updatedAt: now } });
    },

    async patchCalendar(userId, patch, now) {
      await db
        .update(calendarSettings)
        .set({ ...patch, updatedAt: now })
        .where(eq(calendarSettings.userId, userId));
    },

    async labels(userId) {
      const [row] = await db
        .select({ labels: todoSettings.labels })
        .from(todoSettings)
        .where(eq(todoSettings.userId, userId));
      return row?.labels ?? [];
    },

    async saveTodoistAccount(userId, account, now) {
      const values = { ...account, updatedAt: now };
      await db
        .insert(todoSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: todoSettings.userId, set: values });
    },

    async saveTodoistLabels(userId, labels, now) {
      await db
        .insert(todoSettings)
        .values({ userId, labels, updatedAt: now })
        .onConflictDoUpdate({ target: todoSettings.userId, set: { labels, updatedAt: now } });
    },

    async saveCalendarAccount(userId, account, now) {
      const values = { ...account, updatedAt: now };
      await db
        .insert(calendarSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: calendarSettings.userId, set: values });
    },

    async forgetCalendarChoice(userId, now) {
      await db
        .update(calendarSettings)
        .set({ calendarId: null, calendars: [], categories: [], color: '', category: null, updatedAt: now })
        .where(eq(calendarSettings.userId, userId));
    },
  };
}
