import type { FastifyInstance } from 'fastify';
import { readParams } from '../shared/params.ts';
import { authenticate, requireScope } from './todoist.auth.ts';
import type { TodoistContext } from './todoist.context.ts';
import { errors } from './todoist.errors.ts';
import { projectWire, restUserWire } from './todoist.mappers.ts';
import { paginate } from './todoist.pagination.ts';

/** The current user and a read-only view of projects (the Inbox plus any seeded ones). */
export function registerUserRoutes(app: FastifyInstance, context: TodoistContext): void {
  app.get('/api/v1/user', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    return restUserWire(session.user, context.clock.now());
  });

  app.get('/api/v1/projects', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    const projects = context.store.userProjects(session.user.id).filter((project) => !project.isDeleted);
    return paginate(
      projects,
      readParams(request.query),
      JSON.stringify([session.user.id, 'projects']),
      projectWire,
    );
  });

  app.get<{ Params: { id: string } }>('/api/v1/projects/:id', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    const project = context.store.projects.get(request.params.id);
    if (!project || project.userId !== session.user.id || project.isDeleted) throw errors.projectNotFound();
    return projectWire(project);
  });
}
