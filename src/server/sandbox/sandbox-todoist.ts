import type {
  AddTaskArgs,
  PersonalProject,
  Task,
  TodoistApi,
  UpdateTaskArgs,
  WorkspaceProject,
} from '@doist/todoist-sdk';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { InvalidValueError, NotFoundError, StateConflictError } from '#server/domain/shared/domain-errors.ts';
import { isTodoistRequestError, todoistSdk } from '#server/providers/todoist/todoist-sdk.ts';
import type {
  SandboxLabelRename,
  SandboxProjectInput,
  SandboxProjectRename,
  SandboxTaskInput,
  SandboxTodoist,
} from '#shared/api/sandbox.schema.ts';
import { postJson, tokenCache } from './sandbox-emulator-access.ts';

/** What the console does in Todoist: `data:delete` covers tasks and labels, projects need their own. */
const SCOPES = ['data:read_write', 'data:delete', 'project:delete'];
const LIMIT = 200;

/** A person using the emulated Todoist, through the official SDK; each e-mail address is an account. */
export function createSandboxTodoist(origin: string, clock: Clock) {
  const token = tokenCache(
    (email) =>
      postJson<{ users: { accessToken: string }[] }>(`${origin}/_emulator/seed`, {
        users: [{ email, scopes: SCOPES }],
      }).then((body) => body.users[0]?.accessToken ?? ''),
    clock,
  );
  const todoist = async (email: string) =>
    new (await todoistSdk()).TodoistApi(await token(email), { baseUrl: origin });

  /** A project change, its refusals put in the visitor's words; the Inbox is refused before asking. */
  const changeProject = async (
    email: string,
    id: string,
    refusedForInbox: string | null,
    change: (api: TodoistApi) => Promise<unknown>,
  ): Promise<void> => {
    const api = await todoist(email);
    await projectCall(async () => {
      if (refusedForInbox && toSandboxProject(await api.getProject(id)).inbox) {
        throw new StateConflictError(refusedForInbox);
      }
      await change(api);
    });
  };

  return {
    async readTodoist(email: string): Promise<SandboxTodoist> {
      const api = await todoist(email);
      const [tasks, labels, projects, archived] = await Promise.all([
        api.getTasks({ limit: LIMIT }),
        api.getLabels({ limit: LIMIT }),
        api.getProjects({ limit: LIMIT }),
        api.getArchivedProjects({ limit: LIMIT }),
      ]);
      return {
        tasks: tasks.results.map(toSandboxTask),
        labels: labels.results.map(({ id, name }) => ({ id, name })),
        projects: treeOrder(projects.results.map(toSandboxProject)),
        archivedProjects: archived.results.map(({ id, name }) => ({ id, name })),
      };
    },

    async addTask(input: SandboxTaskInput): Promise<void> {
      const api = await todoist(input.email);
      // The SDK's types take one due field at most (`dueOf` gives a time or a date, never both) and
      // the duration fields as a pair; the spreads keep to that.
      await projectCall(() =>
        api.addTask({
          content: input.content,
          labels: input.labels,
          ...(input.projectId && { projectId: input.projectId }),
          ...dueOf(input),
          ...(input.durationMinutes && { duration: input.durationMinutes, durationUnit: 'minute' }),
        } as AddTaskArgs),
      );
    },

    /** Todoist's update does not move a task: another project is a move, made first. */
    async updateTask(id: string, input: SandboxTaskInput): Promise<void> {
      const api = await todoist(input.email);
      const { projectId } = input;
      if (projectId && (await api.getTask(id)).projectId !== projectId) {
        await projectCall(() => api.moveTask(id, { projectId }));
      }
      await api.updateTask(id, {
        content: input.content,
        labels: input.labels,
        ...(dueOf(input) ?? { dueString: 'no date' }),
        ...(input.durationMinutes
          ? { duration: input.durationMinutes, durationUnit: 'minute' as const }
          : { duration: null, durationUnit: null }),
      } as UpdateTaskArgs);
    },

    async completeTask(email: string, id: string): Promise<void> {
      await (await todoist(email)).closeTask(id);
    },

    async deleteTask(email: string, id: string): Promise<void> {
      await (await todoist(email)).deleteTask(id);
    },

    /** Todoist renames the label on every task that carries it; names are unique, whatever their case. */
    async renameLabel(id: string, { email, name }: SandboxLabelRename): Promise<void> {
      const api = await todoist(email);
      try {
        await api.updateLabel(id, { name });
      } catch (error) {
        if (errorTagOf(error) === 'LABEL_ALREADY_EXISTS') {
          throw new InvalidValueError('name', `There is already a label named “${name}” in Todoist`);
        }
        throw error;
      }
    },

    /** Todoist removes the label from every task that carries it. */
    async deleteLabel(email: string, id: string): Promise<void> {
      await (await todoist(email)).deleteLabel(id);
    },

    async addProject({ email, name, parentId }: SandboxProjectInput): Promise<void> {
      const api = await todoist(email);
      await projectCall(() => api.addProject({ name, ...(parentId && { parentId }) }));
    },

    /** Project names need not be unique in Todoist. */
    async renameProject(id: string, { email, name }: SandboxProjectRename): Promise<void> {
      await changeProject(email, id, null, (api) => api.updateProject(id, { name }));
    },

    /** Todoist archives the sub-projects too; the tasks leave the lists with their project. */
    async archiveProject(email: string, id: string): Promise<void> {
      await changeProject(email, id, INBOX_KEPT.archive, (api) => api.archiveProject(id));
    },

    async unarchiveProject(email: string, id: string): Promise<void> {
      await changeProject(email, id, null, (api) => api.unarchiveProject(id));
    },

    /** Todoist deletes the sub-projects and every task in them. */
    async deleteProject(email: string, id: string): Promise<void> {
      await changeProject(email, id, INBOX_KEPT.delete, (api) => api.deleteProject(id));
    },
  };
}

/** The task's due as the SDK takes it: a time, a date without a time, or none. */
function dueOf({
  due,
  dueDate,
}: SandboxTaskInput): { dueDatetime: string } | { dueDate: string } | undefined {
  if (due) return { dueDatetime: new Date(due).toISOString() };
  if (dueDate) return { dueDate };
  return undefined;
}

const INBOX_KEPT = {
  archive: 'The Inbox cannot be archived: every Todoist account keeps it',
  delete: 'The Inbox cannot be deleted: every Todoist account keeps it',
};

function toSandboxTask(task: Task) {
  return {
    id: task.id,
    content: task.content,
    // API v1 puts a due time into `date` itself (YYYY-MM-DDTHH:MM:SS[Z]); `datetime` is a legacy field.
    due: task.due
      ? {
          date: task.due.date,
          datetime: task.due.datetime ?? (task.due.date.includes('T') ? task.due.date : null),
          isRecurring: task.due.isRecurring,
        }
      : null,
    durationMinutes: task.duration?.unit === 'minute' ? task.duration.amount : null,
    labels: task.labels,
    projectId: task.projectId,
  };
}

/** Workspace projects name neither a parent nor the Inbox. */
function toSandboxProject(project: PersonalProject | WorkspaceProject) {
  const personal = 'inboxProject' in project ? project : null;
  return {
    id: project.id,
    name: project.name,
    parentId: personal?.parentId ?? null,
    inbox: personal?.inboxProject ?? false,
    order: project.childOrder,
  };
}

/** Todoist's order: the Inbox, then each level by `childOrder`, every parent before its sub-projects. */
function treeOrder(projects: ReturnType<typeof toSandboxProject>[]) {
  const ids = new Set(projects.map((project) => project.id));
  const byOrder = [...projects].sort((a, b) => Number(b.inbox) - Number(a.inbox) || a.order - b.order);
  const under = (parentId: string | null): ReturnType<typeof toSandboxProject>[] =>
    byOrder
      .filter(
        (project) =>
          (project.parentId !== null && ids.has(project.parentId) ? project.parentId : null) === parentId,
      )
      .flatMap((project) => [project, ...under(project.id)]);
  return under(null).map(({ order: _order, ...project }) => project);
}

/**
 * Runs a call that names a project, turning Todoist's refusals into the domain's: a project it does
 * not know (404) and an argument it refuses (400, such as an archived parent).
 */
async function projectCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isTodoistRequestError(error)) throw error;
    if (error.httpStatusCode === 404) {
      throw new NotFoundError('That project is not in this Todoist account (any more)');
    }
    if (error.httpStatusCode === 400) {
      const { argument, explanation } = errorExtraOf(error);
      if (explanation?.startsWith('The Inbox')) throw new StateConflictError(explanation);
      throw new InvalidValueError(
        FIELDS[argument ?? ''] ?? 'name',
        explanation ?? 'Todoist refused this value',
      );
    }
    throw error;
  }
}

/** Todoist's argument names, as the console's fields name them. */
const FIELDS: Record<string, string> = { parent_id: 'parentId', project_id: 'projectId', name: 'name' };

/** The `error_tag` of a Todoist refusal (the SDK may hand the body over camel-cased). */
function errorTagOf(error: unknown): string | undefined {
  const tag = fieldOf(bodyOf(error), 'error_tag', 'errorTag');
  return typeof tag === 'string' ? tag : undefined;
}

/** The argument a Todoist refusal names, and why. */
function errorExtraOf(error: unknown): { argument?: string; explanation?: string } {
  const extra = fieldOf(bodyOf(error), 'error_extra', 'errorExtra');
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { argument: text(fieldOf(extra, 'argument')), explanation: text(fieldOf(extra, 'explanation')) };
}

function bodyOf(error: unknown): unknown {
  return isTodoistRequestError(error) ? error.responseData : undefined;
}

function fieldOf(data: unknown, ...names: string[]): unknown {
  if (typeof data !== 'object' || data === null) return undefined;
  const name = names.find((candidate) => candidate in data);
  return name === undefined ? undefined : (data as Record<string, unknown>)[name];
}
