import type { FastifyInstance } from 'fastify';
import { authenticate, requireScope } from './todoist.auth.ts';
import type { TodoistContext } from './todoist.context.ts';
import { restUserWire } from './todoist.mappers.ts';

/** The current user (projects are in `todoist.project-routes.ts`). */
export function registerUserRoutes(app: FastifyInstance, context: TodoistContext): void {
  app.get('/api/v1/user', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    return restUserWire(session.user, context.clock.now());
  });
}
