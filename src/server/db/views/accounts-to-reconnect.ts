import { type Column, sql } from 'drizzle-orm';
import { z } from 'zod';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { calendarSettings } from '#server/db/schema/settings.tables.ts';
import { jsonList } from './timeboxes-json.ts';

/**
 * The calendar accounts added beside the sync's that Plan my day cannot read, while it counts them
 * (docs/product-rules.md §10 "Plan my day"): the provider refused our token (`needs_reconnect`), the
 * account lists calendars, and the user's Plan my day is on without "other calendars count" unticked
 * (the rule of `otherAccountsCount`, autoplan-step.ts). Until the user connects them again, blocks may
 * be placed over their meetings: the dashboard and a notice mail name them, by address. `since`: when
 * the account was marked (nothing else changes its row while its token is refused).
 */
const blindAccounts = (userId: Column) => sql`
  from ${integrations}
  join ${calendarSettings} on ${calendarSettings.userId} = ${integrations.userId}
  where ${integrations.userId} = ${userId}
    and ${integrations.kind} = 'calendar'
    and ${integrations.position} > 0
    and ${integrations.needsReconnect}
    and jsonb_array_length(coalesce(${integrations.calendars}, '[]'::jsonb)) > 0
    and (${calendarSettings.autoplan} ->> 'active') = 'true'
    and (${calendarSettings.autoplan} ->> 'otherCalendarsBusy') is distinct from 'false'`;

/** Whether the user has such an account (a condition of an outer statement over `users`). */
export const hasAccountsToReconnect = (userId: Column) => sql`exists (select 1 ${blindAccounts(userId)})`;

/**
 * A column of `integrations` named with its table: in a statement's selected columns Drizzle names a
 * column alone, which the outer statement's `users` (its email, its updated_at) would take for its own.
 */
const own = (column: Column) => sql`${integrations}.${sql.identifier(column.name)}`;

/** The user's such accounts as one JSON list, in the order connected (a column of an outer statement). */
export const accountsToReconnectOf = (userId: Column) => sql`coalesce((
  select json_agg(json_build_object(
      'provider', ${own(integrations.provider)}, 'email', ${own(integrations.email)},
      'since', ${own(integrations.updatedAt)})
    order by ${own(integrations.position)})
  ${blindAccounts(userId)}), '[]'::json)`;

export const accountsToReconnectSchema = jsonList(
  z.object({
    provider: z.enum(['google', 'microsoft']),
    email: z.string().nullable(),
    since: z.coerce.date(),
  }),
);
export type AccountToReconnect = z.infer<typeof accountsToReconnectSchema>[number];

/** The problem such accounts make, since the first of them was marked; null when there are none. */
export function reconnectOtherCalendarProblem(
  accounts: readonly AccountToReconnect[],
): { code: 'reconnect-other-calendar'; since: Date } | null {
  if (accounts.length === 0) return null;
  const since = Math.min(...accounts.map((account) => account.since.getTime()));
  return { code: 'reconnect-other-calendar', since: new Date(since) };
}
