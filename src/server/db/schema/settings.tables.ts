import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TodoistLabel } from '#shared/api/current-user.schema.ts';
import type { OnComplete } from '#shared/settings/constants.ts';
import type { DatedTasksSetting } from '#shared/settings/dated-tasks.ts';
import type { ProjectScope, TodoistProject } from '#shared/settings/project-scope.ts';
import type { Autoplan } from '#shared/settings/settings.schema.ts';
import { users } from './users.table.ts';

export type StoredTodoistLabel = TodoistLabel;
export type StoredTodoistProject = TodoistProject;
/** A label's name before and after a rename (see `LabelRename` in domain/settings/label-identity.ts). */
export type StoredLabelRename = { from: string; to: string };
/**
 * A calendar of the account; `primary`: its main one (absent in a list stored before it was kept);
 * `readOnly`: shared with the account to read only (absent: it may write there).
 */
export type StoredCalendar = {
  id: string;
  name: string;
  color: string | null;
  timeZone: string | null;
  primary?: boolean;
  readOnly?: boolean;
};
export type StoredCategory = { id: string; displayName: string; color: string };

/** What we know of the user's Todoist account, and their task-related settings (docs/product-rules.md §3 todoSettings). */
export const todoSettings = pgTable('todo_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  accountType: text('account_type'),
  todoistUserId: text('todoist_user_id'),
  timezone: text('timezone'),
  labels: jsonb('labels').$type<StoredTodoistLabel[]>().notNull().default([]),
  /** Renames the settings followed, not yet carried onto tasks by a sync run (see `LabelRename`). */
  labelRenames: jsonb('label_renames').$type<StoredLabelRename[]>().notNull().default([]),
  taskDurationActive: boolean('task_duration_active').notNull().default(false),
  taskDurationLabel: text('task_duration_label'),
  /** The Todoist id of `taskDurationLabel`: a label renamed in Todoist renames the setting. */
  taskDurationLabelId: text('task_duration_label_id'),
  onComplete: text('on_complete').$type<OnComplete>().notNull().default('nothing'),
  onPreComplete: boolean('on_pre_complete').notNull().default(false),
  /** The account's active projects as last read (names only for the settings screen, as with labels). */
  projects: jsonb('projects').$type<StoredTodoistProject[]>().notNull().default([]),
  /** Which projects sync; null: never chosen (every project). */
  projectScope: jsonb('project_scope').$type<ProjectScope>(),
  /** The project new tasks from events go to; null: the Inbox. */
  eventProjectId: text('event_project_id'),
  /** Tasks with a date but no time: left alone, or all-day events. */
  datedTasks: text('dated_tasks').$type<DatedTasksSetting>().notNull().default('skip'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A label that timeboxes tasks: a task with it becomes an event of `duration` minutes. */
export const timeboxSettings = pgTable(
  'timebox_settings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    /**
     * The Todoist id of the label, when Todoist has one of that name: the setting follows the label by
     * it (renamed in Todoist, renamed here). Null for a label Todoist lacks (the warning row).
     */
    labelId: text('label_id'),
    duration: integer('duration').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('timebox_settings_user_label_idx').on(table.userId, sql`lower(${table.label})`)],
);

/** The calendar side (docs/product-rules.md §3 calendarSettings). */
export const calendarSettings = pgTable('calendar_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  calendarId: text('calendar_id'),
  calendars: jsonb('calendars').$type<StoredCalendar[]>().notNull().default([]),
  categories: jsonb('categories').$type<StoredCategory[]>().notNull().default([]),
  /** Google event colour id; '' is the calendar's default colour. */
  color: text('color').notNull().default(''),
  category: text('category'),
  private: boolean('private').notNull().default(false),
  todoistLinkDescription: boolean('todoist_link_description').notNull().default(false),
  /** Minutes before the event; null is no reminder. */
  reminder: integer('reminder'),
  /** "Plan my day" as the user chose it; null: never chosen (the defaults, off). */
  autoplan: jsonb('autoplan').$type<Autoplan>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
