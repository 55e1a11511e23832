import type { CustomFetch, SyncCommand } from '@doist/todoist-sdk';
import { z } from 'zod';
import type { TodoistConfig } from '#server/config.ts';
import {
  ProviderRequestError,
  ProviderUnauthorizedError,
} from '#server/domain/integrations/integration-providers.port.ts';
import { RateLimitedError } from '#server/sync/rate-limited-error.ts';
import type {
  DueWrite,
  TaskCommand,
  TaskCommandResult,
  TaskSnapshot,
  TaskSource,
} from '#server/sync/task-source.port.ts';
import { storableText } from '#shared/validation/storable-text.ts';
import { toProjectSnapshot } from './todoist-project.mapper.ts';
import { isTodoistRequestError, isTodoistSyncError, todoistSdk } from './todoist-sdk.ts';

/** A call that has not answered by then is abandoned, so a hanging Todoist cannot stall a user's sync. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Todoist's largest page of `GET /tasks`; as many ids go in one request. */
const TASKS_PER_PAGE = 200;

type SdkTask = {
  id: string;
  content: string;
  description: string;
  labels: string[];
  projectId: string;
  due: {
    date: string;
    datetime?: string | null;
    timezone?: string | null;
    isRecurring: boolean;
    string: string;
  } | null;
  duration: { amount: number; unit: 'minute' | 'day' } | null;
  checked: boolean;
  priority: number;
  childOrder: number;
  isDeleted: boolean;
  completedAt: Date | null;
  updatedAt: Date | null;
};

/** Todoist tasks for the sync engine: incremental reads and idempotent writes through `/sync`. */
export function createTodoistTasks(config: TodoistConfig, options: { timeoutMs?: number } = {}): TaskSource {
  // The SDK repeats a request whose connection failed (writes carry command uuids, so a repeat is
  // applied once); everything else is retried by the job queue, with back-off and Retry-After.
  const customFetch = fetchWithin(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const api = async (token: string) =>
    new (await todoistSdk()).TodoistApi(token, { baseUrl: config.apiUrl, customFetch });

  return {
    changes: (token, syncToken) =>
      call('read Todoist changes', async () => {
        const response = await (await api(token)).sync({
          resourceTypes: ['items', 'labels', 'projects', 'user'],
          syncToken: syncToken ?? '*',
        });
        if (!response.syncToken) throw new ProviderRequestError('Todoist answered without a sync token');
        return {
          tasks: (response.items ?? []).map((item) => toSnapshot(item as SdkTask)),
          labels: (response.labels ?? []).map((label) => ({
            id: label.id,
            name: storableText(label.name),
            color: label.color,
            order: label.order ?? 0,
            isDeleted: label.isDeleted ?? false,
          })),
          projects: (response.projects ?? []).map(toProjectSnapshot),
          full: response.fullSync ?? !syncToken,
          nextToken: response.syncToken,
          timeZone: response.user?.tzInfo?.timezone || null,
        };
      }),

    task: (token, id) =>
      call('read a Todoist task', async () => {
        try {
          return toSnapshot((await (await api(token)).getTask(id)) as SdkTask);
        } catch (error) {
          if (isTodoistRequestError(error) && error.httpStatusCode === 404) return null;
          throw error;
        }
      }),

    openTasks: (token, ids) =>
      call('read Todoist tasks by id', async () => {
        const client = await api(token);
        const tasks: TaskSnapshot[] = [];
        for (let at = 0; at < ids.length; at += TASKS_PER_PAGE) {
          const page = await client.getTasks({
            ids: ids.slice(at, at + TASKS_PER_PAGE),
            limit: TASKS_PER_PAGE,
          });
          tasks.push(...page.results.map((task) => toSnapshot(task as SdkTask)));
        }
        return tasks;
      }),

    apply: (token, commands) =>
      call('write to Todoist', async () => {
        if (commands.length === 0) return { idsByTempId: {}, failed: {} };
        try {
          const response = await (await api(token)).sync({ commands: commands.map(toSdkCommand) });
          return { idsByTempId: response.tempIdMapping ?? {}, failed: {} };
        } catch (error) {
          if (!isTodoistSyncError(error)) throw error;
          // Commands are applied one by one: report which went through and which Todoist refused.
          const failed: TaskCommandResult['failed'] = {};
          const failedStatus: Record<string, number> = {};
          for (const [uuid, status] of Object.entries(error.syncStatus ?? {})) {
            if (status === 'ok') continue;
            const refusal = commandRefusal(status);
            failed[uuid] = refusal.tag.slice(0, 60);
            if (refusal.status !== null) failedStatus[uuid] = refusal.status;
          }
          return { idsByTempId: error.tempIdMapping ?? {}, failed, failedStatus };
        }
      }),
  };
}

/**
 * Node's fetch with a deadline, which the SDK does not set: a Todoist that never answers would hold
 * the user's run until its job expires. The deadline's error is not a network error to the SDK, so it
 * is not repeated there; the run fails and the queue retries it.
 */
function fetchWithin(timeoutMs: number): CustomFetch {
  return async (url, init = {}) => {
    const { timeout: _timeout, signal, ...rest } = init;
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(url, {
        ...rest,
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
      const body = await response.text();
      return {
        ok: response.ok,
        status: response.status,
        statusText: response.statusText,
        headers: Object.fromEntries(response.headers.entries()),
        text: async () => body,
        json: async () => JSON.parse(body),
      };
    } catch (error) {
      if (!deadline.aborted) throw error;
      throw new ProviderRequestError(`Todoist did not answer within ${timeoutMs} ms`);
    }
  };
}

/**
 * A refused command's `sync_status`: Todoist's error object, which the SDK hands over camel-cased
 * (`errorTag`, `httpCode`); the wire's snake_case is read too (docs/provider-facts.md §12).
 */
const commandRefusalSchema = z
  .object({
    errorTag: z.string().min(1).optional(),
    error_tag: z.string().min(1).optional(),
    httpCode: z.number().int().optional(),
    http_code: z.number().int().optional(),
  })
  .catch({});

function commandRefusal(status: unknown): { tag: string; status: number | null } {
  const refusal = commandRefusalSchema.parse(status);
  return {
    tag: refusal.errorTag ?? refusal.error_tag ?? 'error',
    status: refusal.httpCode ?? refusal.http_code ?? null,
  };
}

function toSnapshot(task: SdkTask): TaskSnapshot {
  return {
    id: task.id,
    content: task.content,
    description: task.description,
    labels: [...task.labels],
    projectId: task.projectId,
    due: task.due && {
      date: task.due.datetime ?? task.due.date,
      timezone: task.due.timezone ?? null,
      isRecurring: task.due.isRecurring,
      string: task.due.string,
    },
    duration: task.duration,
    checked: task.checked,
    priority: task.priority,
    order: task.childOrder,
    completedAt: task.completedAt?.toISOString() ?? null,
    isDeleted: task.isDeleted,
    updatedAt: task.updatedAt?.toISOString() ?? null,
  };
}

function dueArgs(due: DueWrite) {
  const string = due.string === undefined ? {} : { string: due.string };
  if (due.kind === 'fixed') return { date: due.utc, timezone: due.timezone, ...string };
  if (due.kind === 'floating') return { date: due.local, ...string };
  return { date: due.date, ...string };
}

function toSdkCommand(command: TaskCommand): SyncCommand {
  if (command.kind === 'add') {
    return {
      type: 'item_add',
      uuid: command.uuid,
      tempId: command.tempId,
      args: {
        content: command.content,
        due: dueArgs(command.due),
        labels: command.labels,
        ...(command.duration ? { duration: command.duration } : {}),
        ...(command.projectId ? { projectId: command.projectId } : {}),
      },
    } as SyncCommand;
  }
  if (command.kind === 'delete')
    return { type: 'item_delete', uuid: command.uuid, args: { id: command.id } } as SyncCommand;
  const args: Record<string, unknown> = { id: command.id };
  if (command.content !== undefined) args.content = command.content;
  if (command.due !== undefined) args.due = command.due === null ? null : dueArgs(command.due);
  if (command.labels !== undefined) args.labels = command.labels;
  if (command.duration !== undefined) args.duration = command.duration;
  return { type: 'item_update', uuid: command.uuid, args } as SyncCommand;
}

async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderRequestError) throw error;
    const status = isTodoistRequestError(error) ? error.httpStatusCode : undefined;
    if (status === 401 || status === 403)
      throw new ProviderUnauthorizedError(`Todoist refused the token (${what})`);
    if (status === 429) throw new RateLimitedError(`Todoist rate limit (${what})`, retryAfter(error));
    const reason = status === undefined ? `: ${(error as Error)?.name ?? 'error'}` : '';
    throw new ProviderRequestError(`Could not ${what}${reason}`, status);
  }
}

function retryAfter(error: unknown): number | null {
  const data = isTodoistRequestError(error) ? error.responseData : undefined;
  const seconds = (data as { error_extra?: { retry_after?: number } } | undefined)?.error_extra?.retry_after;
  return typeof seconds === 'number' ? seconds * 1000 : null;
}
