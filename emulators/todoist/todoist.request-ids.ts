import type { TodoistContext } from './todoist.context.ts';

/** The id created by an earlier create with the same `X-Request-Id`, which Todoist uses for idempotency. */
export function repeatedRequest(
  context: TodoistContext,
  userId: string,
  requestId: unknown,
): string | undefined {
  if (typeof requestId !== 'string' || requestId === '') return undefined;
  return context.store.commandResult(userId, `request:${requestId}`)?.realId;
}

export function rememberRequest(
  context: TodoistContext,
  userId: string,
  requestId: unknown,
  id: string,
): void {
  if (typeof requestId !== 'string' || requestId === '') return;
  context.store.rememberCommand(userId, `request:${requestId}`, { status: 'ok', realId: id });
}
