import type {
  AutoplanKept,
  BrakeItemChoice,
  HeldCause,
  LeftBehind,
  OtherSyncSeen,
} from '#server/db/schema/sync.tables.ts';

/**
 * Where a user's sync stands between runs (one row of `sync_states`; the columns are explained in
 * db/schema/sync.tables.ts): read positions, push channel, budgets, back-off, requests to read, the
 * safety brake, and the calendar of the last run.
 */
export type SyncState = {
  userId: string;
  todoistToken: string | null;
  calendarToken: string | null;
  calendarId: string | null;
  calendarProvider: 'google' | 'microsoft' | null;
  channelId: string | null;
  channelResourceId: string | null;
  channelSecretHash: string | null;
  channelExpiresAt: Date | null;
  pushHeardAt: Date | null;
  titleSalt: string | null;
  lastRunAt: Date | null;
  todoistBudget: number | null;
  todoistBudgetAt: Date | null;
  calendarBudget: number | null;
  calendarBudgetAt: Date | null;
  backoffUntil: Date | null;
  todoistReadsPending: number;
  calendarReadsPending: number;
  heldEvents: number;
  heldTasks: number;
  heldSince: Date | null;
  brakeChoice: 'remove' | 'keep' | null;
  brakeItems: BrakeItemChoice[] | null;
  heldCause: HeldCause | null;
  removalWindowStart: Date | null;
  removalWindowCount: number;
  scopeHash: string | null;
  calendarAccountId: string | null;
  calendarName: string | null;
  leftBehind: LeftBehind | null;
  otherSync: OtherSyncSeen | null;
  autoplan: AutoplanKept | null;
  updatedAt: Date;
};

/** A user's state before any run: the table's defaults. */
export function newSyncState(userId: string, updatedAt: Date, overrides: Partial<SyncState> = {}): SyncState {
  return {
    userId,
    todoistToken: null,
    calendarToken: null,
    calendarId: null,
    calendarProvider: null,
    channelId: null,
    channelResourceId: null,
    channelSecretHash: null,
    channelExpiresAt: null,
    pushHeardAt: null,
    titleSalt: null,
    lastRunAt: null,
    todoistBudget: null,
    todoistBudgetAt: null,
    calendarBudget: null,
    calendarBudgetAt: null,
    backoffUntil: null,
    todoistReadsPending: 0,
    calendarReadsPending: 0,
    heldEvents: 0,
    heldTasks: 0,
    heldSince: null,
    brakeChoice: null,
    brakeItems: null,
    heldCause: null,
    removalWindowStart: null,
    removalWindowCount: 0,
    scopeHash: null,
    calendarAccountId: null,
    calendarName: null,
    leftBehind: null,
    otherSync: null,
    autoplan: null,
    updatedAt,
    ...overrides,
  };
}

export type { AutoplanKept, BrakeItemChoice, HeldCause, LeftBehind, OtherSyncSeen };
