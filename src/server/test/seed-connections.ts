import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import {
  calendarSettings,
  type StoredCalendar,
  type StoredCategory,
  type StoredTodoistLabel,
  todoSettings,
} from '#server/db/schema/settings.tables.ts';

/**
 * Puts a user in the state a completed connect flow leaves behind, for tests of what comes after.
 * The token columns hold a placeholder: these tests never call a provider.
 */
export async function seedTodoist(
  db: Db,
  userId: string,
  todo: { accountType?: string; labels?: StoredTodoistLabel[] } = {},
): Promise<void> {
  await db.insert(integrations).values({
    userId,
    kind: 'todoist',
    provider: 'todoist',
    accountId: 'todoist-user',
    accessTokenEncrypted: 'placeholder',
    keyId: 'test',
  });
  await db
    .insert(todoSettings)
    .values({
      userId,
      todoistUserId: 'todoist-user',
      accountType: todo.accountType ?? 'Free',
      labels: todo.labels ?? [],
    })
    .onConflictDoUpdate({
      target: todoSettings.userId,
      set: {
        todoistUserId: 'todoist-user',
        accountType: todo.accountType ?? 'Free',
        labels: todo.labels ?? [],
      },
    });
}

export async function seedCalendar(
  db: Db,
  userId: string,
  calendar: { provider: 'google' | 'microsoft'; calendars: StoredCalendar[]; categories?: StoredCategory[] },
): Promise<void> {
  await db.insert(integrations).values({
    userId,
    kind: 'calendar',
    provider: calendar.provider,
    accountId: 'calendar-user',
    accessTokenEncrypted: 'placeholder',
    keyId: 'test',
  });
  await db
    .insert(calendarSettings)
    .values({ userId, calendars: calendar.calendars, categories: calendar.categories ?? [] });
}
