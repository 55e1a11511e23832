import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { calendarSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { syncHints, syncProblems } from '#server/db/schema/sync.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import { jsonList, timeboxesOf, timeboxListSchema } from '#server/db/views/timeboxes-json.ts';
import { type SyncContext, syncContextOf } from '../plan/sync-context.ts';

export type SyncSettingsReader = {
  /** Reads the user's choices and says whether sync may run for them now (checked before every run). */
  load(userId: string, now: Date, options?: { evenIfOff?: boolean }): Promise<SyncContext>;
  /** Our users by Todoist account id (webhooks name only Todoist's user); unknown ids are left out. */
  usersByTodoistIds(todoistUserIds: readonly string[]): Promise<Map<string, string>>;
  /** Every user with sync switched on (the periodic reconcile visits them). */
  activeUsers(): Promise<string[]>;
  /**
   * Whether the user's Plan my day is on now: asked once more by a run just before it writes the
   * times it placed, so a switch-off made while the run was under way is never overridden.
   */
  autoplanOn(userId: string): Promise<boolean>;
};

/** The user's Todoist account and the sync's calendar account (position 0), joined beside their settings rows. */
export const todoistAccount = alias(integrations, 'todoist_account');
export const calendarAccount = alias(integrations, 'calendar_account');

/**
 * What a run starts from, every time: the user, both settings rows, both accounts, the timeboxes as a
 * JSON list, and whether problems are raised and hints wait (see `contextOfRow`), in one row.
 */
export const userWithSettingsColumns = {
  user: users,
  todo: todoSettings,
  calendar: calendarSettings,
  todoistAccount,
  calendarAccount,
  timeboxes: timeboxesOf(users.id),
  problemsOpen: sql<boolean>`exists (select 1 from ${syncProblems} where ${syncProblems.userId} = ${users.id})`,
  // Most runs have none: they skip reading them (one statement fewer).
  hintsWaiting: sql<boolean>`exists (select 1 from ${syncHints} where ${syncHints.userId} = ${users.id})`,
  // The accounts added beside the sync's that Plan my day reads, by id with their calendars' ids: what
  // its placed blocks are settled against (autoplanKey). Their tokens are read only when it reads them.
  otherAccounts: sql<unknown>`coalesce((
    select json_agg(json_build_object('id', ${integrations.id}, 'calendars', ${integrations.calendars})
      order by ${integrations.position})
    from ${integrations}
    where ${integrations.userId} = ${users.id} and ${integrations.kind} = 'calendar'
      and ${integrations.position} > 0 and not ${integrations.needsReconnect}), '[]'::json)`,
};

const otherAccountsSchema = jsonList(
  z.object({ id: z.string(), calendars: z.array(z.object({ id: z.string() })).nullable() }),
);

/** The joins of `userWithSettingsColumns` (left joins on the user's id). */
export const settingsJoins = {
  todo: eq(todoSettings.userId, users.id),
  calendar: eq(calendarSettings.userId, users.id),
  todoistAccount: and(eq(todoistAccount.userId, users.id), eq(todoistAccount.kind, 'todoist')),
  calendarAccount: and(
    eq(calendarAccount.userId, users.id),
    eq(calendarAccount.kind, 'calendar'),
    eq(calendarAccount.position, 0),
  ),
};

type UserWithSettingsRow = {
  user: typeof users.$inferSelect;
  todo: typeof todoSettings.$inferSelect | null;
  calendar: typeof calendarSettings.$inferSelect | null;
  todoistAccount: typeof integrations.$inferSelect | null;
  calendarAccount: typeof integrations.$inferSelect | null;
  timeboxes: unknown;
  problemsOpen: boolean;
  hintsWaiting: boolean;
  otherAccounts: unknown;
};

/** The sync context of the row `userWithSettingsColumns` selects (none: the user is gone). */
export function contextOfRow(
  joined: UserWithSettingsRow | undefined,
  now: Date,
  options: { evenIfOff?: boolean } = {},
): SyncContext {
  const rows = {
    user: joined?.user,
    integrations: [joined?.todoistAccount, joined?.calendarAccount].filter((row) => row != null),
    todo: joined?.todo ?? undefined,
    calendar: joined?.calendar ?? undefined,
    timeboxes: joined ? timeboxListSchema.parse(joined.timeboxes) : [],
    problemsOpen: joined?.problemsOpen,
    hintsWaiting: joined?.hintsWaiting,
    otherAccounts: joined
      ? otherAccountsSchema.parse(joined.otherAccounts).map((account) => ({
          id: account.id,
          calendarIds: (account.calendars ?? []).map((calendar) => calendar.id),
        }))
      : [],
  };
  return syncContextOf(rows, now, options);
}

export function createSyncSettingsReader(db: Db): SyncSettingsReader {
  // Built once, prepared by name (a run's own start reads the same row with its lease and state:
  // sync-run-start.repository.ts).
  const userWithSettings = db
    .select(userWithSettingsColumns)
    .from(users)
    .leftJoin(todoSettings, settingsJoins.todo)
    .leftJoin(calendarSettings, settingsJoins.calendar)
    .leftJoin(todoistAccount, settingsJoins.todoistAccount)
    .leftJoin(calendarAccount, settingsJoins.calendarAccount)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('sync_user_with_settings');
  return {
    async load(userId, now, options = {}) {
      const [joined] = await userWithSettings.execute({ userId });
      return contextOfRow(joined, now, options);
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

    async autoplanOn(userId) {
      const [row] = await db
        .select({ autoplan: calendarSettings.autoplan })
        .from(calendarSettings)
        .where(eq(calendarSettings.userId, userId));
      return row?.autoplan?.active === true;
    },
  };
}
