import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';

/** A calendar account added beside the sync's (decision 028): what "Plan my day" reads its busy times from. */
export type OtherAccount = {
  id: string;
  provider: 'google' | 'microsoft';
  /** Its calendars as last listed (read-only ones included: their meetings are the user's too). */
  calendarIds: string[];
  /** Its provider refused our token: left out until the user connects it again. */
  needsReconnect: boolean;
};

export type OtherAccountsReader = { list(userId: string): Promise<OtherAccount[]> };

/** Read only when "Plan my day" reads busy times (most runs do not): one statement then. */
export function createOtherAccountsReader(db: Db): OtherAccountsReader {
  return {
    async list(userId) {
      const rows = await db
        .select({
          id: integrations.id,
          provider: integrations.provider,
          calendars: integrations.calendars,
          needsReconnect: integrations.needsReconnect,
        })
        .from(integrations)
        .where(
          and(
            eq(integrations.userId, userId),
            eq(integrations.kind, 'calendar'),
            gt(integrations.position, 0),
          ),
        )
        .orderBy(asc(integrations.position));
      return rows.flatMap((row) =>
        row.provider === 'todoist'
          ? []
          : [
              {
                id: row.id,
                provider: row.provider,
                calendarIds: (row.calendars ?? []).map((calendar) => calendar.id),
                needsReconnect: row.needsReconnect,
              },
            ],
      );
    },
  };
}
