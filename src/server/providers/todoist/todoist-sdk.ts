import type { TodoistRequestError, TodoistSyncError } from '@doist/todoist-sdk';

type TodoistSdk = typeof import('@doist/todoist-sdk');

let loading: Promise<TodoistSdk> | undefined;
let loaded: TodoistSdk | undefined;

/**
 * The Todoist SDK, imported at its first use rather than when the app starts: with what it imports it
 * is the largest of the provider SDKs (about 7 MB of JS heap), which an instance that has not yet
 * talked to Todoist need not hold (docs/performance.md, the embedded default's memory).
 */
export function todoistSdk(): Promise<TodoistSdk> {
  loading ??= import('@doist/todoist-sdk').then((sdk) => {
    loaded = sdk;
    return sdk;
  });
  return loading;
}

/** A refusal the SDK reports (never before the SDK is loaded: nothing of it has thrown yet). */
export function isTodoistRequestError(error: unknown): error is TodoistRequestError {
  return loaded !== undefined && error instanceof loaded.TodoistRequestError;
}

/** Commands of a `/sync` write that Todoist refused (as `isTodoistRequestError`). */
export function isTodoistSyncError(error: unknown): error is TodoistSyncError {
  return loaded !== undefined && error instanceof loaded.TodoistSyncError;
}
