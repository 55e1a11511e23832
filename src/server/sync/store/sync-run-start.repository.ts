import { eq, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { calendarSettings, todoSettings } from '#server/db/schema/settings.tables.ts';
import { syncRunLeases, syncStates } from '#server/db/schema/sync.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import { isForeignKeyViolation } from '#server/db/unique-violation.ts';
import type { SyncContext } from '../plan/sync-context.ts';
import type { SyncState } from '../sync-state.ts';
import { type LeaseAttempt, takeLeaseQuery } from './sync-run-lease.repository.ts';
import {
  calendarAccount,
  contextOfRow,
  settingsJoins,
  todoistAccount,
  userWithSettingsColumns,
} from './sync-settings.repository.ts';

/** What a run starts from: its user's settings (whether it may run) and sync state. */
export type RunStartRows = { context: SyncContext; state: SyncState | null };

/** A run's start: the user's lease (run-lease.ts), and, when taken, what the run starts from. */
export type SyncRunStart = {
  take(
    userId: string,
    owner: string,
    until: Date,
    now: Date,
  ): Promise<{ lease: LeaseAttempt; rows: RunStartRows | null }>;
};

/**
 * The start of a run in one statement (every statement holds the embedded database's one connection):
 * the lease taken as `SyncRunLeaseRepository.acquire` takes it, in a data-modifying CTE, beside the
 * user's settings row (`userWithSettingsColumns`) and sync state. The select sees the tables as they
 * were when the statement began, so a lease another run holds is read with its time; a user gone
 * fails the lease's foreign key, as with `acquire`.
 */
export function createSyncRunStart(db: Db): SyncRunStart {
  const lease = db.$with('lease').as(takeLeaseQuery(db));
  const start = db
    .with(lease)
    .select({
      ...userWithSettingsColumns,
      state: syncStates,
      leaseTaken: sql<boolean>`exists (select 1 from ${sql.identifier('lease')})`,
      leaseHeldUntil:
        sql<Date | null>`(select ${syncRunLeases.until} from ${syncRunLeases} where ${syncRunLeases.userId} = ${users.id})`.mapWith(
          syncRunLeases.until,
        ),
    })
    .from(users)
    .leftJoin(todoSettings, settingsJoins.todo)
    .leftJoin(calendarSettings, settingsJoins.calendar)
    .leftJoin(todoistAccount, settingsJoins.todoistAccount)
    .leftJoin(calendarAccount, settingsJoins.calendarAccount)
    .leftJoin(syncStates, eq(syncStates.userId, users.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('sync_run_start');
  return {
    async take(userId, owner, until, now) {
      let row: Awaited<ReturnType<typeof start.execute>>[number] | undefined;
      try {
        [row] = await start.execute({ userId, owner, until, now });
      } catch (error) {
        if (isForeignKeyViolation(error)) return { lease: { kind: 'no-user' }, rows: null };
        throw error;
      }
      if (!row) return { lease: { kind: 'no-user' }, rows: null };
      // Taken by a run that started with ours (its lease not yet in our view): try again at once.
      if (!row.leaseTaken) return { lease: { kind: 'busy', until: row.leaseHeldUntil ?? now }, rows: null };
      // Taken, though our view still shows the lease of a run that held it: that run gave it back
      // while this statement ran, and what it saved just before is not in our view. The run reads
      // its settings and state again (on PostgreSQL only: the embedded database runs one statement
      // at a time).
      if (row.leaseHeldUntil && row.leaseHeldUntil >= now) return { lease: { kind: 'taken' }, rows: null };
      return { lease: { kind: 'taken' }, rows: { context: contextOfRow(row, now), state: row.state } };
    },
  };
}
