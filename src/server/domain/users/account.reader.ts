import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { calendarSettings, timeboxSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { type AccountRows, toCurrentUser } from './user.mapper.ts';

/** Reads a user with their integrations and settings, as one view for the web app; writes nothing. */
export type AccountReader = {
  rows(userId: string): Promise<AccountRows | undefined>;
  /** The user as `GET /api/current_user` returns it; undefined once the user is gone. */
  currentUser(userId: string): Promise<CurrentUser | undefined>;
};

export function createAccountReader(db: Db): AccountReader {
  async function rows(userId: string): Promise<AccountRows | undefined> {
    // The one-per-user rows in one statement: every request of the web app reads this view, and on the
    // embedded database each statement costs the app's own thread.
    const [[joined], linked, timeboxes] = await Promise.all([
      db
        .select({ user: users, todo: todoSettings, calendar: calendarSettings })
        .from(users)
        .leftJoin(todoSettings, eq(todoSettings.userId, users.id))
        .leftJoin(calendarSettings, eq(calendarSettings.userId, users.id))
        .where(eq(users.id, userId)),
      db.select().from(integrations).where(eq(integrations.userId, userId)),
      db.select().from(timeboxSettings).where(eq(timeboxSettings.userId, userId)),
    ]);
    return (
      joined && {
        user: joined.user,
        integrations: linked,
        todo: joined.todo ?? undefined,
        timeboxes,
        calendar: joined.calendar ?? undefined,
      }
    );
  }

  return {
    rows,
    async currentUser(userId: string): Promise<CurrentUser | undefined> {
      const found = await rows(userId);
      return found && toCurrentUser(found);
    },
  };
}
