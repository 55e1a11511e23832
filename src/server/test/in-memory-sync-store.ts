import { randomUUID } from 'node:crypto';
import {
  type InMemoryIntegrations,
  inMemoryIntegrations,
} from '#server/domain/testing/in-memory-integrations.ts';
import { type InMemorySettings, inMemorySettings } from '#server/domain/testing/in-memory-settings.ts';
import { type InMemoryUsers, inMemoryUsers } from '#server/domain/testing/in-memory-users.ts';
import { syncContextOf } from '#server/sync/plan/sync-context.ts';
import { ACTIVITY_KEPT, type SyncActivityRepository } from '#server/sync/store/sync-activity.repository.ts';
import type { SyncHintRepository } from '#server/sync/store/sync-hint.repository.ts';
import type { SyncLinkRepository } from '#server/sync/store/sync-link.repository.ts';
import type { SyncRunLeaseRepository } from '#server/sync/store/sync-run-lease.repository.ts';
import type { SyncSettingsReader } from '#server/sync/store/sync-settings.repository.ts';
import type { SyncStateRepository } from '#server/sync/store/sync-state.repository.ts';
import type { SyncLink } from '#server/sync/sync-link.ts';
import { type BrakeItemChoice, newSyncState, type SyncState } from '#server/sync/sync-state.ts';
import type { SyncActivityEntry, SyncProblemCode } from '#shared/api/sync.schema.ts';

/**
 * The sync's repositories in memory, with the rules of the Drizzle ones (unique keys, scoping by user,
 * upserts, `undefined` in a patch leaving a column as it is), for the engine's unit tests. Rows are
 * public so a test can arrange them and read what a run wrote; what the repositories answer is a copy,
 * as rows read from the database are.
 */

const copy = <T>(value: T): T => structuredClone(value);
const uniqueViolation = (index: string) =>
  new Error(`duplicate key value violates unique constraint "${index}"`, { cause: { code: '23505' } });
/** Drizzle skips `undefined` values: the column keeps its value (or takes its default on insert). */
const defined = <T extends object>(patch: T): Partial<T> =>
  Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;

/** `parkedIn`: the account a parked pair waits in, as `provider accountId` (every account counts as connected). */
export type LinkRow = SyncLink & { userId: string; updatedAt: Date; parkedIn?: string | null };

export type InMemorySyncLinks = SyncLinkRepository & { rows: Map<string, LinkRow> };

export function inMemorySyncLinks(clock: () => Date = () => new Date()): InMemorySyncLinks {
  const rows = new Map<string, LinkRow>();
  const toLink = ({ userId: _user, updatedAt: _updated, parkedIn: _parked, ...link }: LinkRow): SyncLink =>
    copy(link);
  const active = (row: LinkRow) => !row.parkedIn;
  const accountKey = (account: { provider: string; accountId: string }) =>
    `${account.provider} ${account.accountId}`;
  /** sync_links_user_task_idx and sync_links_user_event_idx (nulls are distinct; parked pairs are left out). */
  const checkUnique = (row: LinkRow) => {
    if (!active(row)) return;
    for (const other of rows.values()) {
      if (other.id === row.id || other.userId !== row.userId || !active(other)) continue;
      if (row.taskId !== null && other.taskId === row.taskId)
        throw uniqueViolation('sync_links_user_task_idx');
      if (row.eventId !== null && other.eventId === row.eventId)
        throw uniqueViolation('sync_links_user_event_idx');
    }
  };
  return {
    rows,
    async all(userId) {
      return [...rows.values()].filter((row) => row.userId === userId && active(row)).map(toLink);
    },
    async insertPending(userId, link) {
      const row: LinkRow = { ...copy(link), id: link.id ?? randomUUID(), userId, updatedAt: clock() };
      if (rows.has(row.id)) throw uniqueViolation('sync_links_pkey');
      checkUnique(row);
      rows.set(row.id, row);
      return toLink(row);
    },
    async save(userId, id, values, now) {
      const row = rows.get(id);
      if (!row || row.userId !== userId || !active(row)) return;
      const next: LinkRow = { ...row, ...copy(defined(values)), updatedAt: now };
      checkUnique(next);
      rows.set(id, next);
    },
    async remove(userId, id) {
      if (rows.get(id)?.userId === userId) rows.delete(id);
    },
    async removeAll(userId) {
      for (const [id, row] of rows) if (row.userId === userId) rows.delete(id);
    },
    async park(userId, ids, account, now) {
      for (const id of ids) {
        const row = rows.get(id);
        if (row?.userId !== userId) continue;
        if (account) rows.set(id, { ...row, parkedIn: accountKey(account), updatedAt: now });
        else rows.delete(id);
      }
    },
    async parked(userId, account, calendarId) {
      return [...rows.values()]
        .filter(
          (row) =>
            row.userId === userId && row.parkedIn === accountKey(account) && row.calendarId === calendarId,
        )
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map(toLink);
    },
    async resume(userId, ids, now) {
      for (const id of ids) {
        const row = rows.get(id);
        if (row?.userId !== userId || active(row)) continue;
        const next: LinkRow = { ...row, parkedIn: null, updatedAt: now };
        checkUnique(next);
        rows.set(id, next);
      }
    },
    async knownVersions(events) {
      const wanted = new Set(events.map((event) => `${event.userId} ${event.eventId}`));
      return new Map(
        [...rows.values()].flatMap((row) => {
          const key = `${row.userId} ${row.eventId}`;
          return wanted.has(key) && active(row) && row.eventVersion && !row.pendingKey
            ? [[key, row.eventVersion]]
            : [];
        }),
      );
    },
    async refused(userId, limit) {
      const all = [...rows.values()]
        .flatMap(({ userId: owner, refusedWrite, refusedAt, parkedIn, ...row }) =>
          owner === userId && !parkedIn && refusedWrite && refusedAt
            ? [{ ...row, refusedWrite, refusedAt }]
            : [],
        )
        .sort((a, b) => b.refusedAt.getTime() - a.refusedAt.getTime() || (a.id < b.id ? -1 : 1));
      const pairs = all.slice(0, limit).map((row) =>
        copy({
          taskId: row.taskId,
          eventId: row.eventId,
          refusedWrite: row.refusedWrite,
          refusedStatus: row.refusedStatus,
          refusedReason: row.refusedReason,
          refusedAt: row.refusedAt,
          refusedCount: row.refusedCount,
        }),
      );
      return { total: all.length, pairs };
    },
  };
}

export type InMemorySyncStates = SyncStateRepository & { rows: Map<string, SyncState> };

/** `leases`: where a run's lease given back with its state (`saveRun`'s `release`) is held. */
export function inMemorySyncStates(leases?: Pick<InMemorySyncRunLeases, 'release'>): InMemorySyncStates {
  const rows = new Map<string, SyncState>();
  return {
    rows,
    async find(userId) {
      const row = rows.get(userId);
      return row ? copy(row) : null;
    },
    async save(userId, patch, now) {
      const values = { ...copy(defined(patch)), updatedAt: now };
      rows.set(userId, { ...(rows.get(userId) ?? newSyncState(userId, now)), ...values });
    },
    async byChannels(channelIds) {
      const ids = new Set(channelIds);
      return [...rows.values()].filter((row) => row.channelId !== null && ids.has(row.channelId)).map(copy);
    },
    async expiringChannels(before) {
      return [...rows.values()]
        .filter(
          (row) => row.channelId !== null && row.channelExpiresAt !== null && row.channelExpiresAt < before,
        )
        .map(copy);
    },
    async requestReads(requested, sides, now) {
      const userIds = [...new Set(requested)];
      if (userIds.length === 0 || sides.length === 0) return;
      const todoist = sides.includes('todoist') ? 1 : 0;
      const calendar = sides.includes('calendar') ? 1 : 0;
      for (const userId of userIds) {
        const row = rows.get(userId);
        if (!row) {
          rows.set(
            userId,
            newSyncState(userId, now, { todoistReadsPending: todoist, calendarReadsPending: calendar }),
          );
        } else {
          // As the upsert's conflict branch: counts go up, `updated_at` stays.
          row.todoistReadsPending += todoist;
          row.calendarReadsPending += calendar;
        }
      }
    },
    async saveHeldChoice(userId, heldSince, choice, now) {
      const row = rows.get(userId);
      if (!row || row.heldSince?.getTime() !== heldSince.getTime()) return false;
      if ('all' in choice) row.brakeChoice = choice.all;
      else {
        // As the statement: one choice per pair, the latest, in the order the latest ones were made.
        const latest = new Map<string, BrakeItemChoice>();
        for (const item of [...(row.brakeItems ?? []), ...choice.items]) {
          const key = JSON.stringify([item.taskId, item.eventId]);
          latest.delete(key);
          latest.set(key, { ...item });
        }
        row.brakeItems = [...latest.values()];
      }
      row.updatedAt = now;
      return true;
    },
    async saveRun(userId, patch, readsSeen, now, release) {
      if (release) await leases?.release(userId, release.leaseOwner);
      const row = {
        ...(rows.get(userId) ?? newSyncState(userId, now)),
        ...copy(defined(patch)),
        updatedAt: now,
      };
      row.todoistReadsPending = Math.max(row.todoistReadsPending - readsSeen.todoist, 0);
      row.calendarReadsPending = Math.max(row.calendarReadsPending - readsSeen.calendar, 0);
      rows.set(userId, row);
    },
  };
}

export type ActivityRow = Omit<SyncActivityEntry, 'at'> & { userId: string; at: Date };
export type ProblemRow = { userId: string; code: SyncProblemCode; since: Date };

export type InMemorySyncActivity = SyncActivityRepository & {
  rows: ActivityRow[];
  problemRows: ProblemRow[];
};

export function inMemorySyncActivity(): InMemorySyncActivity {
  const rows: ActivityRow[] = [];
  const problemRows: ProblemRow[] = [];
  /** Newest first; of the same time, the later inserted first. */
  const newestFirst = (userId: string) =>
    rows
      .map((row, index) => ({ row, index }))
      .filter(({ row }) => row.userId === userId)
      .sort((a, b) => b.row.at.getTime() - a.row.at.getTime() || b.index - a.index)
      .map(({ row }) => row);
  return {
    rows,
    problemRows,
    async add(userId, entries, at) {
      if (entries.length === 0) return;
      // As the repository's one statement: the entries kept are chosen from the rows before these, so
      // the user keeps ACTIVITY_KEPT older entries besides this run's until the next run trims them.
      const keep = new Set(newestFirst(userId).slice(0, ACTIVITY_KEPT));
      for (let index = rows.length - 1; index >= 0; index--) {
        const row = rows[index] as ActivityRow;
        if (row.userId === userId && row.at < at && !keep.has(row)) rows.splice(index, 1);
      }
      for (const entry of entries) rows.push({ ...entry, id: randomUUID(), userId, at: new Date(at) });
    },
    async recent(userId, limit) {
      return newestFirst(userId)
        .slice(0, limit)
        .map(({ userId: _user, at, ...entry }) => ({ ...entry, at: at.toISOString() }));
    },
    async lastHeld(userId) {
      const held = newestFirst(userId).filter((row) => row.action === 'held');
      const newest = held[0]?.at.getTime();
      return held
        .filter((row) => row.at.getTime() === newest)
        .map((row) => ({ taskId: row.taskId, eventId: row.eventId, direction: row.direction }));
    },
    async problems(userId) {
      return problemRows
        .filter((row) => row.userId === userId)
        .map((row) => ({ code: row.code, since: row.since.toISOString() }));
    },
    async raise(userId, code, now) {
      if (problemRows.some((row) => row.userId === userId && row.code === code)) return;
      problemRows.push({ userId, code, since: new Date(now) });
    },
    async clear(userId, codes) {
      for (let index = problemRows.length - 1; index >= 0; index--) {
        const row = problemRows[index] as ProblemRow;
        if (row.userId === userId && (!codes || codes.includes(row.code))) problemRows.splice(index, 1);
      }
    },
  };
}

export type HintRow = { userId: string; taskId: string; at: Date };

export type InMemorySyncHints = SyncHintRepository & { rows: HintRow[] };

export function inMemorySyncHints(): InMemorySyncHints {
  const rows: HintRow[] = [];
  return {
    rows,
    async occurrencesCompleted(completed, at) {
      for (const { userId, taskId } of completed) {
        const row = rows.find((each) => each.userId === userId && each.taskId === taskId);
        if (row) row.at = new Date(at);
        else rows.push({ userId, taskId, at: new Date(at) });
      }
    },
    async completedOccurrences(userId) {
      return rows
        .filter((row) => row.userId === userId)
        .map((row) => ({ taskId: row.taskId, at: new Date(row.at) }));
    },
    async consume(userId, taskIds, upTo) {
      if (taskIds.length === 0) return;
      for (let index = rows.length - 1; index >= 0; index--) {
        const row = rows[index] as HintRow;
        if (row.userId === userId && taskIds.includes(row.taskId) && row.at <= upTo) rows.splice(index, 1);
      }
    },
  };
}

export type LeaseRow = { owner: string; until: Date };

export type InMemorySyncRunLeases = SyncRunLeaseRepository & { rows: Map<string, LeaseRow> };

/** `userExists`: the users table the lease's foreign key points at (a user gone: 'no-user'). */
export function inMemorySyncRunLeases(
  userExists: (userId: string) => boolean = () => true,
): InMemorySyncRunLeases {
  const rows = new Map<string, LeaseRow>();
  return {
    rows,
    async acquire(userId, owner, until, now) {
      if (!userExists(userId)) return { kind: 'no-user' };
      const held = rows.get(userId);
      // Taken over only once lapsed (`until < now`), even by the same owner.
      if (!held || held.until < now) {
        rows.set(userId, { owner, until: new Date(until) });
        return { kind: 'taken' };
      }
      return { kind: 'busy', until: new Date(held.until) };
    },
    async renew(userId, owner, until) {
      const held = rows.get(userId);
      if (held?.owner !== owner) return false;
      held.until = new Date(until);
      return true;
    },
    async release(userId, owner) {
      if (rows.get(userId)?.owner === owner) rows.delete(userId);
    },
  };
}

/**
 * The settings reader over the in-memory users, integrations and settings (the tables the Drizzle
 * reader selects from), so the settings repository's label changes are what the next run loads.
 */
export function inMemorySyncSettingsReader(sources: {
  users: InMemoryUsers;
  integrations: InMemoryIntegrations;
  settings: InMemorySettings;
}): SyncSettingsReader {
  const { users, integrations, settings } = sources;
  return {
    async load(userId, now, options = {}) {
      const timeboxes = settings.timeboxes
        .filter((row) => row.userId === userId)
        .sort((a, b) => a.duration - b.duration)
        .map(({ label, duration }) => ({ label, duration }));
      return syncContextOf(
        {
          user: copy(users.rows.get(userId)),
          integrations: [...integrations.rows.values()].filter((row) => row.userId === userId).map(copy),
          todo: copy(settings.todo.get(userId)),
          calendar: copy(settings.calendar.get(userId)),
          timeboxes,
        },
        now,
        options,
      );
    },
    async usersByTodoistIds(todoistUserIds) {
      const wanted = new Set(todoistUserIds);
      const found = new Map<string, string>();
      for (const row of settings.todo.values()) {
        if (row.todoistUserId && wanted.has(row.todoistUserId)) found.set(row.todoistUserId, row.userId);
      }
      return found;
    },
    async activeUsers() {
      return [...users.rows.values()].filter((row) => row.syncActive).map((row) => row.id);
    },
    async autoplanOn(userId) {
      return settings.calendar.get(userId)?.autoplan?.active === true;
    },
  };
}

export type InMemorySyncStore = ReturnType<typeof inMemorySyncStore>;

/**
 * Every repository a sync run uses, over one set of users: the sync tables, and the users, integrations
 * and settings the settings reader loads (`labels` is the settings repository a run's labels go to).
 */
export function inMemorySyncStore(clock: () => Date = () => new Date()) {
  const users = inMemoryUsers();
  const integrations = inMemoryIntegrations();
  const settings = inMemorySettings(integrations);
  const leases = inMemorySyncRunLeases((userId) => users.rows.has(userId));
  return {
    users,
    integrations,
    settings,
    labels: settings,
    reader: inMemorySyncSettingsReader({ users, integrations, settings }),
    links: inMemorySyncLinks(clock),
    states: inMemorySyncStates(leases),
    activity: inMemorySyncActivity(),
    hints: inMemorySyncHints(),
    leases,
  };
}
