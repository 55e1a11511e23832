import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { calendarSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import { jsonList, timeboxesOf, timeboxListSchema } from '#server/db/views/timeboxes-json.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { type AccountRows, toCurrentUser } from './user.mapper.ts';

/** Reads a user with their integrations and settings, as one view for the web app; writes nothing. */
export type AccountReader = {
  rows(userId: string): Promise<AccountRows | undefined>;
  /** The user as `GET /api/current_user` returns it; undefined once the user is gone. */
  currentUser(userId: string): Promise<CurrentUser | undefined>;
};

const storedCalendarSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string().nullable(),
  timeZone: z.string().nullable(),
  primary: z.boolean().optional(),
  readOnly: z.boolean().optional(),
});

const linkedAccountsSchema = jsonList(
  z.object({
    id: z.string(),
    kind: z.enum(['todoist', 'calendar']),
    position: z.number().int(),
    provider: z.enum(['todoist', 'google', 'microsoft']),
    accountId: z.string().nullable(),
    email: z.string().nullable(),
    calendars: z.array(storedCalendarSchema).nullable(),
    needsReconnect: z.boolean(),
  }),
);

/**
 * The user's connected accounts and timebox settings as JSON lists beside the one-per-user rows, so the
 * whole view is one statement: every request of the web app reads it, and on the embedded database each
 * statement costs the app's own thread.
 */
const linkedAccounts = sql`coalesce((
  select json_agg(json_build_object(
    'id', ${integrations.id}, 'kind', ${integrations.kind}, 'position', ${integrations.position},
    'provider', ${integrations.provider}, 'accountId', ${integrations.accountId}, 'email', ${integrations.email},
    'calendars', ${integrations.calendars}, 'needsReconnect', ${integrations.needsReconnect})
    order by ${integrations.kind}, ${integrations.position})
  from ${integrations} where ${integrations.userId} = ${users.id}), '[]'::json)`;

export function createAccountReader(db: Db): AccountReader {
  // Every page and settings change of the web app reads it: built once, parsed once per connection.
  const accountOf = db
    .select({
      user: users,
      todo: todoSettings,
      calendar: calendarSettings,
      linkedAccounts,
      timeboxes: timeboxesOf(users.id),
    })
    .from(users)
    .leftJoin(todoSettings, eq(todoSettings.userId, users.id))
    .leftJoin(calendarSettings, eq(calendarSettings.userId, users.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('account_of_user');

  async function rows(userId: string): Promise<AccountRows | undefined> {
    const [found] = await accountOf.execute({ userId });
    return (
      found && {
        user: found.user,
        integrations: linkedAccountsSchema.parse(found.linkedAccounts),
        todo: found.todo ?? undefined,
        timeboxes: timeboxListSchema.parse(found.timeboxes),
        calendar: found.calendar ?? undefined,
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
