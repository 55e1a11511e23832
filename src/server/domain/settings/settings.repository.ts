import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { type IntegrationRow, integrations } from '#server/db/schema/integrations.table.ts';
import {
  calendarSettings,
  type StoredCalendar,
  type StoredCategory,
  type StoredTodoistLabel,
  type StoredTodoistProject,
  timeboxSettings,
  todoSettings,
} from '#server/db/schema/settings.tables.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { renamedChoice } from '#shared/settings/project-scope.ts';
import { isConnected, sortLabels } from '#shared/settings/rules.ts';
import {
  type LabelReference,
  type LabelRename,
  type LabelSeen,
  labelChanges,
  renamesInForce,
  renamesOf,
} from './label-identity.ts';

export type TodoSettingsRow = typeof todoSettings.$inferSelect;
export type CalendarSettingsRow = typeof calendarSettings.$inferSelect;
/** The user's own Todoist-side choices. */
export type TodoPatch = Partial<
  Pick<
    TodoSettingsRow,
    | 'taskDurationActive'
    | 'taskDurationLabel'
    | 'taskDurationLabelId'
    | 'onComplete'
    | 'onPreComplete'
    | 'projectScope'
    | 'eventProjectId'
    | 'datedTasks'
  >
>;
/** The user's own calendar-side choices. */
export type CalendarPatch = Partial<
  Pick<
    CalendarSettingsRow,
    'calendarId' | 'color' | 'category' | 'private' | 'todoistLinkDescription' | 'reminder' | 'autoplan'
  >
>;
/** What Todoist told us about the account. */
export type TodoistAccount = {
  accountType: string;
  todoistUserId: string;
  timezone: string | null;
  labels: StoredTodoistLabel[];
  projects: StoredTodoistProject[];
};
/** A label as an incremental read of Todoist brings it. */
export type LabelChange = StoredTodoistLabel & { deleted: boolean };
/** Settings whose label was renamed (or lost its id) by a read of the labels. */
export type FollowedLabels = {
  timeboxes: { from: string; to: LabelReference }[];
  taskDurationLabel: LabelReference | null;
};
/** What a sync run's read of the labels changed, and the renames it is to carry onto tasks. */
export type AppliedLabelChanges = FollowedLabels & { renames: LabelRename[] };
/** The stored labels and renames as a run read them at its start, with the user's settings. */
export type LabelsKnown = { labels: readonly StoredTodoistLabel[]; renames: readonly LabelRename[] };
/** What the calendar provider told us about the account. */
export type CalendarAccount = { calendars: StoredCalendar[]; categories: StoredCategory[] };

/** What the settings rules need to know before a change. */
export type SettingsReadiness = {
  todoistConnected: boolean;
  calendarConnected: boolean;
  calendarProvider: IntegrationRow['provider'] | null;
  todo: TodoSettingsRow | undefined;
  calendar: CalendarSettingsRow | undefined;
  timeboxCount: number;
};

/**
 * The one writer of `todo_settings`, `timebox_settings` and `calendar_settings`: the user's choices
 * (settings service) and what the providers told us about the accounts (integration services).
 */
export type SettingsRepository = {
  readiness(userId: string): Promise<SettingsReadiness>;
  timeboxLabels(userId: string): Promise<string[]>;
  addTimebox(userId: string, label: LabelReference, duration: number, now: Date): Promise<void>;
  /** False when the user has no timebox with that label (any letter case). */
  updateTimebox(userId: string, label: string, newLabel: LabelReference, duration: number): Promise<boolean>;
  deleteTimebox(userId: string, label: string): Promise<boolean>;
  patchTodo(userId: string, patch: TodoPatch, now: Date): Promise<void>;
  patchCalendar(userId: string, patch: CalendarPatch, now: Date): Promise<void>;
  /** The Todoist labels as last read from Todoist. */
  labels(userId: string): Promise<StoredTodoistLabel[]>;
  saveTodoistAccount(userId: string, account: TodoistAccount, now: Date): Promise<void>;
  saveTodoistLabels(userId: string, labels: StoredTodoistLabel[], now: Date): Promise<void>;
  /**
   * The labels a sync run read (changed since its last read; all of them when `complete`): the stored
   * list takes them in, and the timebox settings and the task-duration label follow their labels by id
   * (see `followLabel`). Answers the settings that changed. With nothing changed, the renames in force
   * come from `known` when given (the run read them at its start), with no statement.
   */
  applyLabelChanges(
    userId: string,
    changed: readonly LabelChange[],
    complete: boolean,
    now: Date,
    known?: LabelsKnown,
  ): Promise<AppliedLabelChanges>;
  /** The account's active projects, as a sync run's read of Todoist left them. */
  saveTodoistProjects(userId: string, projects: StoredTodoistProject[], now: Date): Promise<void>;
  /** A sync run carried these renames onto the tasks it read: they are no longer kept. */
  forgetLabelRenames(userId: string, renames: readonly LabelRename[]): Promise<void>;
  saveCalendarAccount(userId: string, account: CalendarAccount, now: Date): Promise<void>;
  /** Another calendar provider: the chosen calendar, colour and category meant the old one. */
  forgetCalendarChoice(userId: string, now: Date): Promise<void>;
};

/** Reads and writes the settings tables of one user at a time; every query is scoped by user id. */
export function createSettingsRepository(db: Db): SettingsRepository {
  /** The project list, and the names of chosen projects kept current with it (see `renamedChoice`). */
  async function saveTodoistProjects(userId: string, projects: StoredTodoistProject[], now: Date) {
    const [row] = await db
      .select({ projectScope: todoSettings.projectScope })
      .from(todoSettings)
      .where(eq(todoSettings.userId, userId));
    const projectScope = row?.projectScope ? renamedChoice(row.projectScope, projects) : null;
    await db
      .update(todoSettings)
      .set({ projects, ...(projectScope && { projectScope }), updatedAt: now })
      .where(eq(todoSettings.userId, userId));
  }

  const sameLabel = (userId: string, label: string) =>
    and(eq(timeboxSettings.userId, userId), sql`lower(${timeboxSettings.label}) = lower(${label})`);

  /**
   * Renames the settings whose Todoist label was renamed, and keeps their label ids current; the
   * renames are kept for the sync to carry onto tasks (answered as `renames`).
   */
  async function followLabels(
    userId: string,
    labels: readonly LabelSeen[],
    complete: boolean,
    now: Date,
  ): Promise<AppliedLabelChanges> {
    const [timeboxes, [todo]] = await Promise.all([
      db
        .select({ label: timeboxSettings.label, labelId: timeboxSettings.labelId })
        .from(timeboxSettings)
        .where(eq(timeboxSettings.userId, userId)),
      db
        .select({ label: todoSettings.taskDurationLabel, labelId: todoSettings.taskDurationLabelId })
        .from(todoSettings)
        .where(eq(todoSettings.userId, userId)),
    ]);
    const followed: FollowedLabels = { timeboxes: [], taskDurationLabel: null };
    for (const { from, to } of labelChanges(timeboxes, labels, complete)) {
      try {
        await db
          .update(timeboxSettings)
          .set({ label: to.label, labelId: to.labelId })
          .where(and(eq(timeboxSettings.userId, userId), eq(timeboxSettings.label, from.label)));
        followed.timeboxes.push({ from: from.label, to });
      } catch (error) {
        // Another setting has the new name already (two labels swapped names between two reads): this
        // one keeps its name until the user edits it.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    const durationLabel = todo?.label ? { label: todo.label, labelId: todo.labelId } : null;
    const [duration] = durationLabel ? labelChanges([durationLabel], labels, complete) : [];
    if (duration) {
      await db
        .update(todoSettings)
        .set({
          taskDurationLabel: duration.to.label,
          taskDurationLabelId: duration.to.labelId,
          updatedAt: now,
        })
        .where(eq(todoSettings.userId, userId));
      followed.taskDurationLabel = duration.to;
    }
    const renames = renamesOf([
      ...followed.timeboxes.map(({ from, to }) => ({ from, to: to.label })),
      ...(duration ? [{ from: duration.from.label, to: duration.to.label }] : []),
    ]);
    if (renames.length > 0) {
      await db
        .update(todoSettings)
        .set({ labelRenames: sql`${todoSettings.labelRenames} || ${JSON.stringify(renames)}::jsonb` })
        .where(eq(todoSettings.userId, userId));
    }
    return { ...followed, renames };
  }

  /** Drops these kept renames; any other (followed meanwhile, by the dashboard say) stays. */
  async function forgetLabelRenames(userId: string, renames: readonly LabelRename[]) {
    if (renames.length === 0) return;
    await db
      .update(todoSettings)
      .set({
        labelRenames: sql`coalesce((select jsonb_agg(kept) from jsonb_array_elements(${todoSettings.labelRenames}) as kept where not ${JSON.stringify(renames)}::jsonb @> jsonb_build_array(kept)), '[]'::jsonb)`,
      })
      .where(eq(todoSettings.userId, userId));
  }

  return {
    async readiness(userId) {
      const [linked, [todo], [calendar], [{ count } = { count: 0 }]] = await Promise.all([
        db.select().from(integrations).where(eq(integrations.userId, userId)),
        db.select().from(todoSettings).where(eq(todoSettings.userId, userId)),
        db.select().from(calendarSettings).where(eq(calendarSettings.userId, userId)),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(timeboxSettings)
          .where(eq(timeboxSettings.userId, userId)),
      ]);
      return {
        todoistConnected: isConnected(linked.find((row) => row.kind === 'todoist')),
        calendarConnected: isConnected(linked.find((row) => row.kind === 'calendar' && row.position === 0)),
        calendarProvider:
          linked.find((row) => row.kind === 'calendar' && row.position === 0)?.provider ?? null,
        todo,
        calendar,
        timeboxCount: Number(count),
      };
    },

    async timeboxLabels(userId) {
      const rows = await db
        .select({ label: timeboxSettings.label })
        .from(timeboxSettings)
        .where(eq(timeboxSettings.userId, userId));
      return rows.map((row) => row.label);
    },

    async addTimebox(userId, label, duration, now) {
      await db
        .insert(timeboxSettings)
        .values({ userId, label: label.label, labelId: label.labelId, duration, createdAt: now });
    },

    async updateTimebox(userId, label, newLabel, duration) {
      const updated = await db
        .update(timeboxSettings)
        .set({ label: newLabel.label, labelId: newLabel.labelId, duration })
        .where(sameLabel(userId, label))
        .returning({ label: timeboxSettings.label });
      return updated.length > 0;
    },

    async deleteTimebox(userId, label) {
      const deleted = await db
        .delete(timeboxSettings)
        .where(sameLabel(userId, label))
        .returning({ label: timeboxSettings.label });
      return deleted.length > 0;
    },

    async patchTodo(userId, patch, now) {
      await db
        .insert(todoSettings)
        .values({ userId, ...patch, updatedAt: now })
        .onConflictDoUpdate({ target: todoSettings.userId, set: { ...patch, updatedAt: now } });
    },

    async patchCalendar(userId, patch, now) {
      await db
        .update(calendarSettings)
        .set({ ...patch, updatedAt: now })
        .where(eq(calendarSettings.userId, userId));
    },

    async labels(userId) {
      const [row] = await db
        .select({ labels: todoSettings.labels })
        .from(todoSettings)
        .where(eq(todoSettings.userId, userId));
      return row?.labels ?? [];
    },

    async saveTodoistAccount(userId, account, now) {
      const { projects, ...rest } = account;
      const values = { ...rest, updatedAt: now };
      await db
        .insert(todoSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: todoSettings.userId, set: values });
      await saveTodoistProjects(userId, projects, now);
      await followLabels(userId, account.labels, true, now);
    },

    async saveTodoistLabels(userId, labels, now) {
      await db
        .insert(todoSettings)
        .values({ userId, labels, updatedAt: now })
        .onConflictDoUpdate({ target: todoSettings.userId, set: { labels, updatedAt: now } });
      await followLabels(userId, labels, true, now);
    },

    async applyLabelChanges(userId, changed, complete, now, known) {
      if (changed.length === 0 && !complete && known)
        return {
          timeboxes: [],
          taskDurationLabel: null,
          renames: renamesInForce(known.renames, known.labels),
        };
      const [row] = await db
        .select({ labels: todoSettings.labels, renames: todoSettings.labelRenames })
        .from(todoSettings)
        .where(eq(todoSettings.userId, userId));
      const kept = row?.renames ?? [];
      if (changed.length === 0 && !complete)
        return { timeboxes: [], taskDurationLabel: null, renames: renamesInForce(kept, row?.labels ?? []) };
      const byId = new Map(complete ? [] : (row?.labels ?? []).map((label) => [label.id, label]));
      for (const { deleted, ...label } of changed) {
        if (deleted) byId.delete(label.id);
        else byId.set(label.id, label);
      }
      const labels = sortLabels([...byId.values()]);
      await db.update(todoSettings).set({ labels, updatedAt: now }).where(eq(todoSettings.userId, userId));
      const followed = await followLabels(userId, changed, complete, now);
      const renames = renamesInForce([...kept, ...followed.renames], labels);
      // A label has the old name again: its tasks are its own from now on, whatever happens to it.
      await forgetLabelRenames(
        userId,
        kept.filter((rename) => !renames.includes(rename)),
      );
      return { ...followed, renames };
    },

    forgetLabelRenames,

    saveTodoistProjects,

    async saveCalendarAccount(userId, account, now) {
      const values = { ...account, updatedAt: now };
      await db
        .insert(calendarSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: calendarSettings.userId, set: values });
    },

    async forgetCalendarChoice(userId, now) {
      await db
        .update(calendarSettings)
        .set({ calendarId: null, calendars: [], categories: [], color: '', category: null, updatedAt: now })
        .where(eq(calendarSettings.userId, userId));
    },
  };
}
