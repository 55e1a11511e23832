import { and, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { syncRunLeases, syncStates } from '#server/db/schema/sync.tables.ts';
import type { SyncSide } from '../sync-sides.ts';
import type { BrakeItemChoice, SyncState } from '../sync-state.ts';

/** The user's choice on held removals: for all still undecided, or for single items. */
export type HeldChoice = { all: 'remove' | 'keep' } | { items: BrakeItemChoice[] };

export type SyncStatePatch = Partial<
  Omit<SyncState, 'userId' | 'updatedAt' | 'todoistReadsPending' | 'calendarReadsPending'>
>;

export type SyncStateRepository = {
  find(userId: string): Promise<SyncState | null>;
  save(userId: string, patch: SyncStatePatch, now: Date): Promise<void>;
  /** The users whose calendar channels have these ids (push notifications name only the channel). */
  byChannels(channelIds: readonly string[]): Promise<SyncState[]>;
  /** Users whose channel expires before `before`: renew them. */
  expiringChannels(before: Date): Promise<SyncState[]>;
  /**
   * Something may have changed on these sides for these users: their next runs read them. `heard`:
   * the ones among them whose calendar channel just delivered a notification (`pushHeardAt` is now).
   */
  requestReads(
    userIds: readonly string[],
    sides: readonly SyncSide[],
    now: Date,
    heard?: ReadonlySet<string>,
  ): Promise<void>;
  /**
   * Saves the user's choice for the brake that holds since `heldSince`, in one statement: not saved
   * (false) when that brake is over, so a choice never reaches a later brake. Choices for items join
   * the ones already made, the later one for a pair replacing the earlier.
   */
  saveHeldChoice(userId: string, heldSince: Date, choice: HeldChoice, now: Date): Promise<boolean>;
  /**
   * A run's end in one statement: `patch`, and the read requests it answered (it read these sides,
   * seeing the requests counted in `readsSeen`; later requests stay); with `release`, the run's lease
   * (run-lease.ts) given back in the same statement, by a run that has nothing left to write.
   */
  saveRun(
    userId: string,
    patch: SyncStatePatch,
    readsSeen: Record<SyncSide, number>,
    now: Date,
    release?: { leaseOwner: string },
  ): Promise<void>;
};

/** The only writer of `sync_states`. */
export function createSyncStateRepository(db: Db): SyncStateRepository {
  // The lease given back beside the run's state: a data-modifying CTE, run whether or not it is read.
  const releasing = (userId: string, owner: string) =>
    db.$with('released').as(
      db
        .delete(syncRunLeases)
        .where(and(eq(syncRunLeases.userId, userId), eq(syncRunLeases.owner, owner)))
        .returning({ userId: syncRunLeases.userId }),
    );
  // Read at the start of every run: built once, prepared by name.
  const stateOf = db
    .select()
    .from(syncStates)
    .where(eq(syncStates.userId, sql.placeholder('userId')))
    .prepare('sync_state_of_user');
  return {
    async find(userId) {
      const [row] = await stateOf.execute({ userId });
      return row ?? null;
    },
    async save(userId, patch, now) {
      const values = { ...patch, updatedAt: now };
      await db
        .insert(syncStates)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: syncStates.userId, set: values });
    },
    async byChannels(channelIds) {
      if (channelIds.length === 0) return [];
      return db
        .select()
        .from(syncStates)
        .where(inArray(syncStates.channelId, [...channelIds]));
    },
    async expiringChannels(before) {
      return db
        .select()
        .from(syncStates)
        .where(and(isNotNull(syncStates.channelId), lt(syncStates.channelExpiresAt, before)));
    },
    async requestReads(requested, sides, now, heard) {
      // One row may be updated once per statement: a user named twice is asked once.
      const userIds = [...new Set(requested)];
      if (userIds.length === 0 || sides.length === 0) return;
      const todoist = sides.includes('todoist') ? 1 : 0;
      const calendar = sides.includes('calendar') ? 1 : 0;
      await db
        .insert(syncStates)
        .values(
          userIds.map((userId) => ({
            userId,
            todoistReadsPending: todoist,
            calendarReadsPending: calendar,
            pushHeardAt: heard?.has(userId) ? now : null,
            updatedAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: syncStates.userId,
          set: {
            todoistReadsPending: sql`${syncStates.todoistReadsPending} + ${todoist}`,
            calendarReadsPending: sql`${syncStates.calendarReadsPending} + ${calendar}`,
            ...(heard?.size
              ? { pushHeardAt: sql`coalesce(excluded.push_heard_at, ${syncStates.pushHeardAt})` }
              : {}),
          },
        });
    },
    async saveHeldChoice(userId, heldSince, choice, now) {
      const saved = await db
        .update(syncStates)
        .set({
          ...('all' in choice ? { brakeChoice: choice.all } : { brakeItems: joined(choice.items) }),
          updatedAt: now,
        })
        .where(and(eq(syncStates.userId, userId), eq(syncStates.heldSince, heldSince)))
        .returning({ userId: syncStates.userId });
      return saved.length > 0;
    },
    async saveRun(userId, patch, readsSeen, now, release) {
      const values = { ...patch, updatedAt: now };
      const insert = (release ? db.with(releasing(userId, release.leaseOwner)) : db)
        .insert(syncStates)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: syncStates.userId,
          set: {
            ...values,
            todoistReadsPending: sql`greatest(${syncStates.todoistReadsPending} - ${readsSeen.todoist}, 0)`,
            calendarReadsPending: sql`greatest(${syncStates.calendarReadsPending} - ${readsSeen.calendar}, 0)`,
          },
        });
      await insert;
    },
  };
}

/**
 * The item choices already made with `items` after them, one per pair (the latest), in the order the
 * latest ones were made: in the statement itself, so two choices saved at once both stay.
 */
function joined(items: BrakeItemChoice[]) {
  const all = sql`coalesce(${syncStates.brakeItems}, '[]'::jsonb) || ${JSON.stringify(items)}::jsonb`;
  return sql<BrakeItemChoice[]>`(
    select coalesce(jsonb_agg(latest.item order by latest.n), '[]'::jsonb)
    from (
      select distinct on (item->>'taskId', item->>'eventId') item, n
      from jsonb_array_elements(${all}) with ordinality as chosen(item, n)
      order by item->>'taskId', item->>'eventId', n desc
    ) as latest
  )`;
}
