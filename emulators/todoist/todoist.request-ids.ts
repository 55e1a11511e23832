import type { FastifyRequest } from 'fastify';
import type { TodoistContext } from './todoist.context.ts';
import type { UserRecord } from './todoist.records.ts';

/**
 * A REST create, run once per `X-Request-Id` (Todoist's idempotency): a request repeating an earlier id
 * answers what that one created (`find`) instead of creating again.
 */
export function createOnce<T extends { id: string }>(
  context: TodoistContext,
  user: UserRecord,
  request: FastifyRequest,
  find: (id: string) => T,
  create: () => T,
): T {
  const requestId = request.headers['x-request-id'];
  const key = typeof requestId === 'string' && requestId !== '' ? `request:${requestId}` : undefined;
  const repeated = key === undefined ? undefined : context.store.commandResult(user.id, key)?.realId;
  if (repeated) return find(repeated);
  const created = create();
  if (key !== undefined) context.store.rememberCommand(user.id, key, { status: 'ok', realId: created.id });
  return created;
}
