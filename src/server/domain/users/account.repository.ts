import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { calendarSettings, timeboxSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { type AccountRows, toCurrentUser } from './user.mapper.ts';

export type AccountReader = ReturnType<typeof createAccountReader>;

/** Reads a user with their integrations and settings, as one view for the web app. */
export function createAccountReader(db: Db) {
  async function rows(userId: string): Promise<AccountRows | undefined> {
    const [[user], linked, [todo], timeboxes, [calendar]] = await Promise.all([
      db.select().from(users).where(eq(users.id, userId)),
      db.select().from(integrations).where(eq(integrations.userId, userId)),
      db.select().from(todoSettings).where(eq(todoSettings.userId, userId)),
      db.select().from(timeboxSettings).where(eq(timeboxSettings.userId, userId)),
      db.select().from(calendarSettings).where(eq(calendarSettings.userId, userId)),
    ]);
    return user && { user, integrations: linked, todo, timeboxes, calendar };
  }

  return {
    rows,
    async currentUser(userId: string): Promise<CurrentUser | undefined> {
      const found = await rows(userId);
      return found && toCurrentUser(found);
    },
  };
}
