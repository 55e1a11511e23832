import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../shared/params.ts';
import type { AccessToken } from './todoist.accounts.ts';
import type { TodoistContext } from './todoist.context.ts';
import { errors } from './todoist.errors.ts';
import type { UserRecord } from './todoist.records.ts';

/** Who sent a request: the user, the token's grant, and the token itself (`bearer`). */
export type Session = { user: UserRecord; token: AccessToken; bearer: string };

/** What an operation needs: read, write, add a task only, delete, or delete a project. */
export type Need = 'read' | 'write' | 'add' | 'delete' | 'deleteProject';

const GRANTING: Record<Need, string[]> = {
  read: ['data:read', 'data:read_write'],
  write: ['data:read_write'],
  add: ['task:add', 'data:read_write'],
  delete: ['data:delete'],
  // Todoist's scopes: `data:delete` covers tasks, labels and filters; projects need `project:delete`.
  deleteProject: ['project:delete'],
};

export function authenticate(context: TodoistContext, request: FastifyRequest): Session {
  const token = bearerToken(request.headers.authorization);
  const details = token === undefined ? undefined : context.accounts.token(token);
  const user = details === undefined ? undefined : context.store.users.get(details.userId);
  if (token === undefined || !details || !user) throw errors.invalidToken();
  return { user, token: details, bearer: token };
}

export function requireScope(session: Session, need: Need): void {
  if (!GRANTING[need].some((scope) => session.token.scopes.includes(scope))) {
    throw errors.insufficientScope(GRANTING[need].join(' or '));
  }
}
