import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { BrakeChoice, OtherSync, SyncAction } from '#shared/api/sync.schema.ts';
import type { HeldCause } from '#shared/sync/held-removals.ts';
import type { RefusedWrite } from '#shared/sync/refused-writes.ts';
import { integrations } from './integrations.table.ts';
import { users } from './users.table.ts';

export type LeftBehind = {
  provider: 'google' | 'microsoft';
  calendarId: string;
  calendarName: string | null;
  events: number;
  at: string;
  /**
   * Why they stayed: the account is no longer connected (absent in rows written before the reason was
   * kept), or the account can now only read that calendar.
   */
  why?: 'disconnected' | 'read-only';
};

/** The user's choice for one held removal, its pair named by the ids the brake logged it with. */
export type BrakeItemChoice = { taskId: string | null; eventId: string | null; choice: BrakeChoice };

/** Another sync writing into the chosen calendar, as first seen; `dismissed`: the user has read it. */
export type OtherSyncSeen = { tool: OtherSync; seenAt: string; dismissed: boolean };

/**
 * "Plan my day" between runs (docs/product-rules.md §10): the blocks it placed that nobody changed
 * since (only those may move), and the dated tasks that did not fit. Ids, dates and times only.
 */
export type AutoplanKept = {
  placements: { taskId: string; start: string; end: string }[];
  unplaced: { taskId: string; date: string; minutes: number; priority: number; order: number }[];
  /**
   * The hours, gap and busy calendars the placements were settled with (`autoplanKey`); other ones make
   * the next run check every placed block again. Absent in a state kept before it was recorded.
   */
  plannedWith?: string;
};

export type { HeldCause };

export type LinkTaskMeta = { labels: string[]; dueTimezone: string | null; recurrence: string | null };

/**
 * One task mirrored by one event. Holds ids, version markers and the last values synced per field,
 * so a change is told from an echo field by field. Titles only as hashes: never a task's or event's
 * text. A create in flight is recorded here (`pendingKey`) before the provider is called, so a job that
 * dies after the provider's write repeats the same idempotent create instead of making a second one.
 */
export const syncLinks = pgTable(
  'sync_links',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null while the task is being created from an event. */
    taskId: text('task_id'),
    /** Null while the event is being created, or after it was removed on completion. */
    eventId: text('event_id'),
    calendarId: text('calendar_id').notNull(),
    origin: text('origin').$type<'task' | 'event'>().notNull(),
    /** The idempotency key of a create in flight (event client id / Todoist command uuid). */
    pendingKey: text('pending_key'),
    /** Counts the events made for this task, so each gets its own deterministic id. */
    generation: integer('generation').notNull().default(0),
    taskVersion: text('task_version'),
    eventVersion: text('event_version'),
    titleHash: text('title_hash').notNull(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    /** The pair is a dated task and an all-day event; `startAt` is the start of that day in the user's zone. */
    allDay: boolean('all_day').notNull().default(false),
    /** Length the task asks for (timebox label or duration field), and the event's own length. */
    taskMinutes: integer('task_minutes').notNull(),
    eventMinutes: integer('event_minutes').notNull(),
    completed: boolean('completed').notNull().default(false),
    /** The event carries the ✓ prefix. */
    marked: boolean('marked').notNull().default(false),
    /** Fingerprint of the settings that shape an event (colour, privacy, reminder, link). */
    appearanceHash: text('appearance_hash').notNull(),
    /**
     * What a task update from the calendar side must carry over without reading the task first: its
     * label names, and how its due is kept (fixed zone, recurrence rule). No title, no description.
     */
    taskMeta: jsonb('task_meta').$type<LinkTaskMeta>().notNull(),
    /** The task's version when a provider refused a write of the pair for good (see below). */
    refusedTaskVersion: text('refused_task_version'),
    /**
     * A write of this pair a provider refused for good (docs/product-rules.md §10): what was refused, the
     * provider's status and short reason code (never any user text), when, how many times in a row, and
     * the event's version and the settings it was refused for (the task's version is `refusedTaskVersion`). Null: none refused.
     */
    refusedWrite: text('refused_write').$type<RefusedWrite>(),
    refusedStatus: integer('refused_status'),
    refusedReason: text('refused_reason'),
    refusedAt: timestamp('refused_at', { withTimezone: true }),
    refusedCount: integer('refused_count').notNull().default(0),
    refusedEventVersion: text('refused_event_version'),
    /** The settings' fingerprint (`appearanceHash`) the write was refused with: new settings are a change. */
    refusedAppearance: text('refused_appearance'),
    /**
     * Null: the pair is the sync's. Else the pair was left behind in this calendar account when the
     * sync went to another (decision 028): parked, out of everything the sync does, until the sync
     * comes back to its calendar (`calendarId`) in that account and resumes it instead of making the
     * task's event twice. Removing the account removes its parked pairs.
     */
    parkedIn: uuid('parked_in').references(() => integrations.id, { onDelete: 'cascade' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('sync_links_user_task_idx')
      .on(table.userId, table.taskId)
      .where(sql`${table.parkedIn} is null`),
    uniqueIndex('sync_links_user_event_idx')
      .on(table.userId, table.eventId)
      .where(sql`${table.parkedIn} is null`),
    index('sync_links_parked_idx')
      .on(table.userId, table.parkedIn, table.calendarId)
      .where(sql`${table.parkedIn} is not null`),
  ],
);

/** Per user: incremental read positions and the push channel of the calendar. */
export const syncStates = pgTable('sync_states', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  todoistToken: text('todoist_token'),
  calendarToken: text('calendar_token'),
  /** The calendar `calendarToken` belongs to; another chosen calendar means a full read. */
  calendarId: text('calendar_id'),
  calendarProvider: text('calendar_provider').$type<'google' | 'microsoft'>(),
  channelId: text('channel_id'),
  channelResourceId: text('channel_resource_id'),
  /** SHA-256 of the secret the provider echoes with each notification (Google token, Graph clientState). */
  channelSecretHash: text('channel_secret_hash'),
  channelExpiresAt: timestamp('channel_expires_at', { withTimezone: true }),
  /**
   * The last moment the channel was known to deliver: a change notice on it arrived (not the echo of
   * the sync's own write, which costs no statement), or it was opened or renewed (null: not since this
   * column came). Someone else's change older than that is one the channel told of; one well after it
   * that no notice told of means the channel went quiet (plan/quiet-channel.ts).
   */
  pushHeardAt: timestamp('push_heard_at', { withTimezone: true }),
  /** Random per user: keys the title hashes of the user's links. */
  titleSalt: text('title_salt'),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  /**
   * The provider budgets (sync/plan/provider-budget.ts): calls the user's sync may still make at once, as
   * of when a run last spent from it (null: full). Below zero, the next queued run waits.
   */
  todoistBudget: doublePrecision('todoist_budget'),
  todoistBudgetAt: timestamp('todoist_budget_at', { withTimezone: true }),
  calendarBudget: doublePrecision('calendar_budget'),
  calendarBudgetAt: timestamp('calendar_budget_at', { withTimezone: true }),
  /** A provider asked us to wait (429 Retry-After): no sync before then. */
  backoffUntil: timestamp('backoff_until', { withTimezone: true }),
  /**
   * Requests to read each side since a run last read it: a Todoist webhook counts for Todoist, a
   * calendar push for the calendar, anything else (reconcile, settings, the switch) for both. A run
   * from the queue reads only the sides with requests, and takes off what it saw.
   */
  todoistReadsPending: integer('todoist_reads_pending').notNull().default(0),
  calendarReadsPending: integer('calendar_reads_pending').notNull().default(0),
  /**
   * The safety brake (sync/plan/removal-brake.ts): removals held back for the user's choice (events to
   * remove, tasks to delete or unschedule; both 0: none), since when, and the choice once made
   * ('remove' | 'keep') for every item without a choice of its own, carried out by the next run.
   */
  heldEvents: integer('held_events').notNull().default(0),
  heldTasks: integer('held_tasks').notNull().default(0),
  heldSince: timestamp('held_since', { withTimezone: true }),
  brakeChoice: text('brake_choice').$type<BrakeChoice>(),
  /**
   * The user's choices for single held items, each carried out by the next run that holds its pair;
   * the undecided ones stay held. Null (none) again when the brake ends, so they never reach a later one.
   */
  brakeItems: jsonb('brake_items').$type<BrakeItemChoice[]>(),
  /** Why the held removals came about (null: none held, or no single cause). */
  heldCause: jsonb('held_cause').$type<HeldCause>(),
  /** Removals carried out since `removalWindowStart`: many in a short time trip the brake too. */
  removalWindowStart: timestamp('removal_window_start', { withTimezone: true }),
  removalWindowCount: integer('removal_window_count').notNull().default(0),
  /** `scopeHash` of the settings of the last run: another one makes the next run read both sides in full. */
  scopeHash: text('scope_hash'),
  /** The calendar account of the last run (integrations.account_id) and its calendar's name. */
  calendarAccountId: text('calendar_account_id'),
  calendarName: text('calendar_name'),
  /**
   * Events of ours left in a calendar of an account no longer connected (the user switched to another
   * account or provider): where, how many, when; shown on the dashboard until dismissed.
   */
  leftBehind: jsonb('left_behind').$type<LeftBehind>(),
  /** Another sync seen writing into the chosen calendar (first seen; dismissed by the user). */
  otherSync: jsonb('other_sync').$type<OtherSyncSeen>(),
  /** "Plan my day": what it placed and what did not fit; null while it has never run. */
  autoplan: jsonb('autoplan').$type<AutoplanKept>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What the sync did, for the dashboard: provider ids and short codes only. */
export const syncActivity = pgTable(
  'sync_activity',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    direction: text('direction').$type<'todoist-to-calendar' | 'calendar-to-todoist'>().notNull(),
    action: text('action').$type<SyncAction>().notNull(),
    taskId: text('task_id'),
    eventId: text('event_id'),
    detail: text('detail'),
  },
  (table) => [index('sync_activity_user_at_idx').on(table.userId, table.at)],
);

/** Problems only the user can solve (reconnect, calendar gone ...), until solved. */
export const syncProblems = pgTable(
  'sync_problems',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.code] })],
);

/**
 * What a Todoist webhook told us that a read cannot: a recurring task's occurrence was completed (Todoist
 * keeps the task and moves its due). Kept until the next run has used it.
 */
export const syncHints = pgTable(
  'sync_hints',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    taskId: text('task_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.taskId] })],
);

/**
 * Who runs a user's sync now (sync/run/run-lease.ts): one run per user at a time, across every worker
 * process. Held until `until` and renewed while the run lasts; a worker that dies lets it lapse.
 */
export const syncRunLeases = pgTable('sync_run_leases', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  owner: text('owner').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});

/**
 * The app-wide provider budgets (sync/run/app-budget.ts): what all users' runs together may still call
 * Google (per Cloud project) or Microsoft Graph (per app) at once, as of when a worker process last
 * wrote its calls back. One row per provider.
 */
export const providerAppBudgets = pgTable('provider_app_budgets', {
  provider: text('provider').primaryKey().$type<'google' | 'microsoft'>(),
  tokens: doublePrecision('tokens').notNull(),
  spentAt: timestamp('spent_at', { withTimezone: true }).notNull(),
});
