import {
  type AddTaskArgs,
  type Task,
  TodoistApi,
  TodoistRequestError,
  type UpdateTaskArgs,
} from '@doist/todoist-sdk';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { InvalidValueError } from '#server/domain/shared/domain-errors.ts';
import type { SandboxLabelRename, SandboxTaskInput, SandboxTodoist } from '#shared/api/sandbox.schema.ts';
import { postJson, tokenCache } from './sandbox-emulator-access.ts';

/** A person using the emulated Todoist, through the official SDK; each e-mail address is an account. */
export function createSandboxTodoist(origin: string, clock: Clock) {
  const token = tokenCache(
    (email) =>
      postJson<{ users: { accessToken: string }[] }>(`${origin}/_emulator/seed`, { users: [{ email }] }).then(
        (body) => body.users[0]?.accessToken ?? '',
      ),
    clock,
  );
  const todoist = async (email: string) => new TodoistApi(await token(email), { baseUrl: origin });

  return {
    async readTodoist(email: string): Promise<SandboxTodoist> {
      const api = await todoist(email);
      const [tasks, labels] = await Promise.all([
        api.getTasks({ limit: 200 }),
        api.getLabels({ limit: 200 }),
      ]);
      return {
        tasks: tasks.results.map(toSandboxTask),
        labels: labels.results.map(({ id, name }) => ({ id, name })),
      };
    },

    async addTask(input: SandboxTaskInput): Promise<void> {
      const api = await todoist(input.email);
      // The SDK's types require due and duration fields in pairs; the spreads keep them paired.
      await api.addTask({
        content: input.content,
        labels: input.labels,
        ...(input.due && { dueDatetime: new Date(input.due).toISOString() }),
        ...(input.durationMinutes && { duration: input.durationMinutes, durationUnit: 'minute' }),
      } as AddTaskArgs);
    },

    async updateTask(id: string, input: SandboxTaskInput): Promise<void> {
      const api = await todoist(input.email);
      await api.updateTask(id, {
        content: input.content,
        labels: input.labels,
        ...(input.due ? { dueDatetime: new Date(input.due).toISOString() } : { dueString: 'no date' }),
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
  };
}

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
  };
}

/** The `error_tag` of a Todoist refusal (the SDK may hand the body over camel-cased). */
function errorTagOf(error: unknown): string | undefined {
  const data = error instanceof TodoistRequestError ? error.responseData : undefined;
  if (typeof data !== 'object' || data === null) return undefined;
  const tag = 'error_tag' in data ? data.error_tag : 'errorTag' in data ? data.errorTag : undefined;
  return typeof tag === 'string' ? tag : undefined;
}
