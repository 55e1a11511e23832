import { isUniqueViolation } from '#server/db/unique-violation.ts';
import type { NoticePrefs } from '#shared/api/notices.schema.ts';
import { type OnComplete, SYNC_ALL_TASKS } from '#shared/settings/constants.ts';
import type { DatedTasksSetting } from '#shared/settings/dated-tasks.ts';
import type { ProjectScopeInput } from '#shared/settings/project-scope.ts';
import { canUseTaskDuration, syncToggleAllowed } from '#shared/settings/rules.ts';
import { type Autoplan, MESSAGES } from '#shared/settings/settings.schema.ts';
import type { Clock } from '../shared/clock.port.ts';
import {
  InvalidValueError,
  NotFoundError,
  PlanRequiredError,
  StateConflictError,
} from '../shared/domain-errors.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { followLabel, type LabelReference } from './label-identity.ts';
import type { SettingsRepository } from './settings.repository.ts';
import type { SyncRequests } from './sync-requests.port.ts';

export type SettingsService = ReturnType<typeof createSettingsService>;

/** The rules of docs/product-rules.md §4 and §5 for every setting, enforced here whatever the client shows. */
type Deps = {
  settings: SettingsRepository;
  users: Pick<UserRepository, 'updatePreferences' | 'updateNoticeSwitches'>;
  /** Every change the sync reads asks for the user's next run (see `syncedSettings`). */
  syncs: SyncRequests;
  clock: Clock;
};

/**
 * The settings repository as this service writes it: each write of something the sync reads (timebox
 * settings, the Todoist and calendar choices) is followed by a request for the user's next run, so a
 * new setting cannot forget to ask for one.
 */
function syncedSettings(settings: SettingsRepository, syncs: SyncRequests): SettingsRepository {
  const thenSync =
    <A extends unknown[], R>(write: (userId: string, ...args: A) => Promise<R>) =>
    async (userId: string, ...args: A): Promise<R> => {
      const result = await write(userId, ...args);
      await syncs.request(userId);
      return result;
    };
  return {
    ...settings,
    addTimebox: thenSync(settings.addTimebox),
    updateTimebox: thenSync(settings.updateTimebox),
    deleteTimebox: thenSync(settings.deleteTimebox),
    patchTodo: thenSync(settings.patchTodo),
    patchCalendar: thenSync(settings.patchCalendar),
  };
}

export function createSettingsService({ settings: stored, users, syncs, clock }: Deps) {
  const settings = syncedSettings(stored, syncs);
  const labelIssue = (message: string) => new InvalidValueError('label', message);

  // The check before writing catches a duplicate label; the unique index catches the race between two requests.
  const unlessDuplicate = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw labelIssue(MESSAGES.labelDuplicate);
      throw error;
    }
  };

  async function timeboxesEditable(userId: string) {
    const state = await settings.readiness(userId);
    if (!state.todoistConnected || !state.todo?.todoistUserId) {
      throw new StateConflictError('Please connect Todoist before adding timebox settings.');
    }
    if (state.todo.taskDurationActive) {
      throw new StateConflictError('Timebox settings are paused while task durations are active.');
    }
    return state;
  }

  /** A label the user chose, with the id of the Todoist label of that name when there is one. */
  async function labelReference(userId: string, label: string): Promise<LabelReference> {
    return followLabel({ label, labelId: null }, await settings.labels(userId), true);
  }

  async function calendarSettingsOf(userId: string) {
    const state = await settings.readiness(userId);
    if (!state.calendarConnected || !state.calendar) {
      throw new StateConflictError('Please connect a calendar first.');
    }
    return { ...state, calendar: state.calendar };
  }

  async function todoistProjects(userId: string) {
    const state = await settings.readiness(userId);
    if (!state.todoistConnected || !state.todo) {
      throw new StateConflictError('Please connect Todoist first.');
    }
    return { projects: state.todo.projects, chosenBefore: state.todo.projectScope?.projects ?? [] };
  }

  async function premiumTodo(userId: string) {
    const state = await settings.readiness(userId);
    if (!state.todoistConnected || !canUseTaskDuration(state.todo?.accountType)) {
      throw new PlanRequiredError('Requires Todoist Premium or Business');
    }
    return state;
  }

  return {
    async addTimebox(userId: string, label: string, duration: number): Promise<void> {
      await timeboxesEditable(userId);
      const existing = await settings.timeboxLabels(userId);
      if (existing.some((other) => other.toLowerCase() === label.toLowerCase())) {
        throw labelIssue(MESSAGES.labelDuplicate);
      }
      const reference = await labelReference(userId, label);
      await unlessDuplicate(() => settings.addTimebox(userId, reference, duration, clock()));
    },

    async editTimebox(userId: string, label: string, newLabel: string, duration: number): Promise<void> {
      await timeboxesEditable(userId);
      const existing = await settings.timeboxLabels(userId);
      const others = existing.filter((other) => other.toLowerCase() !== label.toLowerCase());
      if (others.length === existing.length)
        throw new NotFoundError(`No timebox setting has the label ${label}.`);
      if (others.some((other) => other.toLowerCase() === newLabel.toLowerCase())) {
        throw labelIssue(MESSAGES.labelDuplicate);
      }
      const reference = await labelReference(userId, newLabel);
      await unlessDuplicate(() => settings.updateTimebox(userId, label, reference, duration));
    },

    async deleteTimebox(userId: string, label: string): Promise<void> {
      if (!(await settings.deleteTimebox(userId, label))) {
        throw new NotFoundError(`No timebox setting has the label ${label}.`);
      }
    },

    async setTaskDurationActive(userId: string, active: boolean): Promise<void> {
      if (active) await premiumTodo(userId);
      await settings.patchTodo(userId, { taskDurationActive: active }, clock());
    },

    async setTaskDurationLabel(userId: string, label: string): Promise<void> {
      const state = await premiumTodo(userId);
      const known =
        label === SYNC_ALL_TASKS || (state.todo?.labels ?? []).some((entry) => entry.name === label);
      if (!known) throw labelIssue('Please choose one of your Todoist labels');
      const labelId = state.todo?.labels.find((entry) => entry.name === label)?.id ?? null;
      await settings.patchTodo(userId, { taskDurationLabel: label, taskDurationLabelId: labelId }, clock());
    },

    async setCalendarId(userId: string, calendarId: string): Promise<void> {
      const { calendar } = await calendarSettingsOf(userId);
      const chosen = calendar.calendars.find((entry) => entry.id === calendarId);
      if (!chosen) throw new InvalidValueError('calendarId', 'Please choose one of your calendars');
      if (chosen.readOnly) {
        throw new InvalidValueError(
          'calendarId',
          'You can only read this calendar, so Timeboxer cannot add events to it. Please choose another one.',
        );
      }
      await settings.patchCalendar(userId, { calendarId }, clock());
    },

    async setColor(userId: string, color: string): Promise<void> {
      const state = await calendarSettingsOf(userId);
      if (state.calendarProvider !== 'google')
        throw new StateConflictError('Event colours are for Google Calendar.');
      await settings.patchCalendar(userId, { color }, clock());
    },

    async setCategory(userId: string, category: string | null): Promise<void> {
      const state = await calendarSettingsOf(userId);
      if (state.calendarProvider !== 'microsoft')
        throw new StateConflictError('Categories are for Microsoft 365.');
      if (category !== null && !state.calendar.categories.some((entry) => entry.displayName === category)) {
        throw new InvalidValueError('category', 'Please choose one of your Outlook categories');
      }
      await settings.patchCalendar(userId, { category }, clock());
    },

    async setPrivate(userId: string, value: boolean): Promise<void> {
      await calendarSettingsOf(userId);
      await settings.patchCalendar(userId, { private: value }, clock());
    },

    async setTodoistLinkDescription(userId: string, value: boolean): Promise<void> {
      await calendarSettingsOf(userId);
      await settings.patchCalendar(userId, { todoistLinkDescription: value }, clock());
    },

    async setReminder(userId: string, reminder: number | null): Promise<void> {
      await calendarSettingsOf(userId);
      await settings.patchCalendar(userId, { reminder }, clock());
    },

    async setAutoplan(userId: string, autoplan: Autoplan): Promise<void> {
      await calendarSettingsOf(userId);
      await settings.patchCalendar(userId, { autoplan }, clock());
    },

    /**
     * Which projects sync: each chosen id is one of the account's projects as last read, or one already
     * chosen (a project archived since stays chosen, and named, until the user leaves it out).
     */
    async setProjectScope(userId: string, scope: ProjectScopeInput): Promise<void> {
      const { projects, chosenBefore } = await todoistProjects(userId);
      const names = new Map([
        ...chosenBefore.map((chosen) => [chosen.id, chosen.name] as const),
        ...projects.map((project) => [project.id, project.name] as const),
      ]);
      const chosen = scope.mode === 'all' ? [] : scope.projectIds;
      const unknown = chosen.filter((id) => !names.has(id));
      if (unknown.length > 0) {
        throw new InvalidValueError(
          'projectIds',
          `Please choose among your Todoist projects (not found: ${unknown.join(', ')}); refresh to see them as they are.`,
        );
      }
      const named = chosen.map((id) => ({ id, name: names.get(id) ?? '' }));
      await settings.patchTodo(userId, { projectScope: { mode: scope.mode, projects: named } }, clock());
    },

    /** Where new tasks from events go: one of the account's projects, or null for the Inbox. */
    async setEventProject(userId: string, projectId: string | null): Promise<void> {
      const { projects } = await todoistProjects(userId);
      if (projectId !== null && !projects.some((project) => project.id === projectId)) {
        throw new InvalidValueError('projectId', 'Please choose one of your Todoist projects');
      }
      await settings.patchTodo(userId, { eventProjectId: projectId }, clock());
    },

    async setDatedTasks(userId: string, setting: DatedTasksSetting): Promise<void> {
      await settings.patchTodo(userId, { datedTasks: setting }, clock());
    },

    async setOnComplete(userId: string, setting: OnComplete): Promise<void> {
      await settings.patchTodo(userId, { onComplete: setting }, clock());
    },

    async setOnPreComplete(userId: string, setting: boolean): Promise<void> {
      await settings.patchTodo(userId, { onPreComplete: setting }, clock());
    },

    async setSyncActive(userId: string, active: boolean): Promise<void> {
      const state = await settings.readiness(userId);
      const readiness = {
        todoistConnected: state.todoistConnected,
        timeboxCount: state.timeboxCount,
        calendarConnected: state.calendarConnected,
        calendarChosen: !!state.calendar?.calendarId,
      };
      if (!syncToggleAllowed(readiness, active)) {
        throw new StateConflictError(
          'Sync can be switched on once Todoist is connected, at least one timebox setting exists, and a calendar is connected and chosen.',
        );
      }
      await users.updatePreferences(userId, { syncActive: active }, clock());
      await syncs.request(userId);
    },

    async setWizardSeen(userId: string, seen: boolean): Promise<void> {
      await users.updatePreferences(userId, { welcomeWizardSeen: seen }, clock());
    },

    async setNotices(userId: string, prefs: NoticePrefs): Promise<void> {
      await users.updateNoticeSwitches(userId, prefs, clock());
    },
  };
}
