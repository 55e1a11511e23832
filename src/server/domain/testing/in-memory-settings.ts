import { isConnected, sortLabels } from '#shared/settings/rules.ts';
import { type LabelSeen, labelChanges, renamesInForce, renamesOf } from '../settings/label-identity.ts';
import type {
  AppliedLabelChanges,
  CalendarSettingsRow,
  FollowedLabels,
  SettingsRepository,
  TodoSettingsRow,
} from '../settings/settings.repository.ts';
import { type InMemoryIntegrations, inMemoryIntegrations } from './in-memory-integrations.ts';
import { EPOCH } from './row-epoch.ts';

/**
 * The settings repository (Todoist and calendar settings, timeboxes, labels followed by id) in memory,
 * with the same rules as the Drizzle one (unique keys, scoping by user), for the services' unit tests.
 * Its rows are public so a test can arrange them and read what was written.
 */

export function todoRow(userId: string, overrides: Partial<TodoSettingsRow> = {}): TodoSettingsRow {
  return {
    userId,
    accountType: 'Free',
    todoistUserId: 'todoist-1',
    timezone: 'Europe/Berlin',
    labels: [],
    labelRenames: [],
    taskDurationActive: false,
    taskDurationLabel: null,
    taskDurationLabelId: null,
    onComplete: 'nothing',
    onPreComplete: false,
    projects: [],
    projectScope: null,
    eventProjectId: null,
    datedTasks: 'skip',
    updatedAt: EPOCH,
    ...overrides,
  };
}

export function calendarRow(
  userId: string,
  overrides: Partial<CalendarSettingsRow> = {},
): CalendarSettingsRow {
  return {
    userId,
    calendarId: null,
    calendars: [],
    categories: [],
    color: '',
    category: null,
    private: false,
    autoplan: null,
    todoistLinkDescription: false,
    reminder: null,
    updatedAt: EPOCH,
    ...overrides,
  };
}

export type TimeboxRow = {
  userId: string;
  label: string;
  labelId: string | null;
  duration: number;
  createdAt: Date;
};

export type InMemorySettings = SettingsRepository & {
  todo: Map<string, TodoSettingsRow>;
  calendar: Map<string, CalendarSettingsRow>;
  timeboxes: TimeboxRow[];
};

/** Readiness is read from the integrations given, as the Drizzle repository reads that table. */
export function inMemorySettings(
  integrations: InMemoryIntegrations = inMemoryIntegrations(),
): InMemorySettings {
  const todo = new Map<string, TodoSettingsRow>();
  const calendar = new Map<string, CalendarSettingsRow>();
  const timeboxes: TimeboxRow[] = [];
  const same = (userId: string, label: string) => (row: TimeboxRow) =>
    row.userId === userId && row.label.toLowerCase() === label.toLowerCase();
  const uniqueViolation = () => new Error('duplicate key', { cause: { code: '23505' } });
  const upsertTodo = (userId: string, patch: Partial<TodoSettingsRow>) =>
    todo.set(userId, {
      ...(todo.get(userId) ?? todoRow(userId, { accountType: null, todoistUserId: null, timezone: null })),
      ...patch,
    });
  const upsertCalendar = (userId: string, patch: Partial<CalendarSettingsRow>) =>
    calendar.set(userId, { ...(calendar.get(userId) ?? calendarRow(userId)), ...patch });
  const followLabels = (
    userId: string,
    labels: readonly LabelSeen[],
    complete: boolean,
  ): AppliedLabelChanges => {
    const rows = timeboxes.filter((row) => row.userId === userId);
    const followed: FollowedLabels = { timeboxes: [], taskDurationLabel: null };
    for (const { from, to } of labelChanges(rows, labels, complete)) {
      if (rows.some((other) => other !== from && same(userId, to.label)(other))) continue;
      followed.timeboxes.push({ from: from.label, to });
      Object.assign(from, to);
    }
    const row = todo.get(userId);
    const durationRename: { from: string; to: string }[] = [];
    if (row?.taskDurationLabel) {
      const reference = { label: row.taskDurationLabel, labelId: row.taskDurationLabelId };
      const [change] = labelChanges([reference], labels, complete);
      if (change) {
        upsertTodo(userId, { taskDurationLabel: change.to.label, taskDurationLabelId: change.to.labelId });
        followed.taskDurationLabel = change.to;
        durationRename.push({ from: change.from.label, to: change.to.label });
      }
    }
    const renames = renamesOf([
      ...followed.timeboxes.map(({ from, to }) => ({ from, to: to.label })),
      ...durationRename,
    ]);
    const kept = todo.get(userId)?.labelRenames ?? [];
    if (renames.length > 0) upsertTodo(userId, { labelRenames: [...kept, ...renames] });
    return { ...followed, renames };
  };

  return {
    todo,
    calendar,
    timeboxes,
    async readiness(userId) {
      const linked = [...integrations.rows.values()].filter((row) => row.userId === userId);
      return {
        todoistConnected: isConnected(linked.find((row) => row.kind === 'todoist')),
        calendarConnected: isConnected(linked.find((row) => row.kind === 'calendar' && row.position === 0)),
        calendarProvider:
          linked.find((row) => row.kind === 'calendar' && row.position === 0)?.provider ?? null,
        todo: todo.get(userId),
        calendar: calendar.get(userId),
        timeboxCount: timeboxes.filter((row) => row.userId === userId).length,
      };
    },
    timeboxLabels: async (userId) => timeboxes.filter((row) => row.userId === userId).map((row) => row.label),
    async addTimebox(userId, label, duration, now) {
      if (timeboxes.some(same(userId, label.label))) throw uniqueViolation();
      timeboxes.push({ userId, ...label, duration, createdAt: now });
    },
    async updateTimebox(userId, label, newLabel, duration) {
      const row = timeboxes.find(same(userId, label));
      if (!row) return false;
      if (timeboxes.some((other) => other !== row && same(userId, newLabel.label)(other)))
        throw uniqueViolation();
      Object.assign(row, { ...newLabel, duration });
      return true;
    },
    async deleteTimebox(userId, label) {
      const index = timeboxes.findIndex(same(userId, label));
      if (index < 0) return false;
      timeboxes.splice(index, 1);
      return true;
    },
    patchTodo: async (userId, patch, now) => {
      upsertTodo(userId, { ...patch, updatedAt: now });
    },
    patchCalendar: async (userId, patch, now) => {
      const row = calendar.get(userId);
      if (row) calendar.set(userId, { ...row, ...patch, updatedAt: now });
    },
    labels: async (userId) => todo.get(userId)?.labels ?? [],
    saveTodoistAccount: async (userId, account, now) => {
      upsertTodo(userId, { ...account, updatedAt: now });
      followLabels(userId, account.labels, true);
    },
    saveTodoistLabels: async (userId, labels, now) => {
      upsertTodo(userId, { labels, updatedAt: now });
      followLabels(userId, labels, true);
    },
    applyLabelChanges: async (userId, changed, complete, now) => {
      const byId = new Map(
        complete ? [] : (todo.get(userId)?.labels ?? []).map((label) => [label.id, label]),
      );
      for (const { deleted, ...label } of changed) {
        if (deleted) byId.delete(label.id);
        else byId.set(label.id, label);
      }
      const labels = sortLabels([...byId.values()]);
      const kept = todo.get(userId)?.labelRenames ?? [];
      upsertTodo(userId, { labels, updatedAt: now });
      const followed = followLabels(userId, changed, complete);
      return { ...followed, renames: renamesInForce([...kept, ...followed.renames], labels) };
    },
    saveTodoistProjects: async (userId, projects, now) => {
      const row = todo.get(userId);
      if (row) todo.set(userId, { ...row, projects, updatedAt: now });
    },
    forgetLabelRenames: async (userId, renames) => {
      const carried = (rename: { from: string; to: string }) =>
        renames.some((each) => each.from === rename.from && each.to === rename.to);
      const row = todo.get(userId);
      if (row) upsertTodo(userId, { labelRenames: row.labelRenames.filter((rename) => !carried(rename)) });
    },
    saveCalendarAccount: async (userId, account, now) => {
      upsertCalendar(userId, { ...account, updatedAt: now });
    },
    forgetCalendarChoice: async (userId, now) => {
      const row = calendar.get(userId);
      if (row) {
        calendar.set(userId, {
          ...row,
          calendarId: null,
          calendars: [],
          categories: [],
          color: '',
          category: null,
          updatedAt: now,
        });
      }
    },
  };
}
