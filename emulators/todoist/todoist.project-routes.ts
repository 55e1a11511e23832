import type { FastifyInstance } from 'fastify';
import { readParams } from '../shared/params.ts';
import { authenticate, requireScope } from './todoist.auth.ts';
import type { TodoistContext } from './todoist.context.ts';
import { projectWire } from './todoist.mappers.ts';
import { paginate } from './todoist.pagination.ts';
import type { ProjectOperations } from './todoist.project-operations.ts';
import { createOnce } from './todoist.request-ids.ts';
import {
  createProjectBody,
  parseWith,
  restProjectFields,
  updateProjectBody,
} from './todoist.rest-schemas.ts';

type IdParams = { id: string };

/**
 * `/api/v1/projects` as the SDK calls it: the active and the archived lists (paginated), get, create,
 * update (`POST`), archive, unarchive (both answer the project) and delete (204).
 */
export function registerProjectRoutes(
  app: FastifyInstance,
  context: TodoistContext,
  projects: ProjectOperations,
): void {
  app.get('/api/v1/projects', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    const scope = JSON.stringify([session.user.id, 'projects']);
    return paginate(projects.list(session.user, false), readParams(request.query), scope, projectWire);
  });

  app.get('/api/v1/projects/archived', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    const scope = JSON.stringify([session.user.id, 'projects/archived']);
    return paginate(projects.list(session.user, true), readParams(request.query), scope, projectWire);
  });

  app.get<{ Params: IdParams }>('/api/v1/projects/:id', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    return projectWire(projects.find(session.user, request.params.id));
  });

  app.post('/api/v1/projects', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    const project = createOnce(
      context,
      session.user,
      request,
      (id) => projects.find(session.user, id),
      () => {
        const body = parseWith(createProjectBody, request.body);
        return projects.add(session.user, {
          ...restProjectFields(body),
          name: body.name,
          parentId: body.parent_id,
        });
      },
    );
    return projectWire(project);
  });

  app.post<{ Params: IdParams }>('/api/v1/projects/:id', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    const body = parseWith(updateProjectBody, request.body);
    return projectWire(projects.update(session.user, request.params.id, restProjectFields(body)));
  });

  app.post<{ Params: IdParams }>('/api/v1/projects/:id/archive', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    return projectWire(projects.archive(session.user, request.params.id, 'project_id'));
  });

  app.post<{ Params: IdParams }>('/api/v1/projects/:id/unarchive', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    return projectWire(projects.unarchive(session.user, request.params.id));
  });

  app.delete<{ Params: IdParams }>('/api/v1/projects/:id', async (request, reply) => {
    const session = authenticate(context, request);
    requireScope(session, 'deleteProject');
    projects.delete(session.user, request.params.id, 'project_id');
    return reply.code(204).send();
  });
}
