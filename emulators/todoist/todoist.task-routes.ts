import type { FastifyInstance } from 'fastify';
import { readParams } from '../shared/params.ts';
import { authenticate, requireScope } from './todoist.auth.ts';
import { dueContext, type TodoistContext } from './todoist.context.ts';
import { errors } from './todoist.errors.ts';
import { taskWire } from './todoist.mappers.ts';
import { paginate } from './todoist.pagination.ts';
import type { TaskRecord } from './todoist.records.ts';
import { createOnce } from './todoist.request-ids.ts';
import { createTaskBody, parseWith, restTaskFields, updateTaskBody } from './todoist.rest-schemas.ts';
import { taskMoveBody } from './todoist.sync-args.ts';
import type { TaskOperations } from './todoist.task-operations.ts';

type IdParams = { id: string };

export function registerTaskRoutes(
  app: FastifyInstance,
  context: TodoistContext,
  tasks: TaskOperations,
): void {
  const { store } = context;
  const wire = (task: TaskRecord) => taskWire(task, context.wire);

  app.get('/api/v1/tasks', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    const query = readParams(request.query);
    const ids = query.ids ? new Set(query.ids.split(',').map((id) => id.trim())) : undefined;
    // Active tasks: not those of an archived project, which leave the lists with it.
    const active = store
      .userTasks(session.user.id)
      .filter((task) => !task.checked && !task.isDeleted && !store.projects.get(task.projectId)?.isArchived)
      .filter((task) => !query.project_id || task.projectId === query.project_id)
      .filter((task) => !query.section_id || task.sectionId === query.section_id)
      .filter((task) => !query.parent_id || task.parentId === query.parent_id)
      .filter((task) => !query.label || task.labels.includes(query.label))
      .filter((task) => !ids || ids.has(task.id))
      .sort((a, b) => a.childOrder - b.childOrder);
    const scope = JSON.stringify([
      session.user.id,
      'tasks',
      query.project_id,
      query.section_id,
      query.parent_id,
      query.label,
      query.ids,
    ]);
    return paginate(active, query, scope, wire);
  });

  app.get('/api/v1/tasks/completed/by_completion_date', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    const query = readParams(request.query);
    if (!query.since) throw errors.missing('since');
    if (!query.until) throw errors.missing('until');
    const since = Date.parse(query.since);
    const until = Date.parse(query.until);
    if (Number.isNaN(since)) throw errors.invalid('since');
    if (Number.isNaN(until)) throw errors.invalid('until');
    const completed = store
      .userTasks(session.user.id)
      .filter(
        (task): task is TaskRecord & { completedAt: string } =>
          task.checked && !task.isDeleted && task.completedAt !== null,
      )
      .filter((task) => Date.parse(task.completedAt) >= since && Date.parse(task.completedAt) <= until)
      .filter((task) => !query.project_id || task.projectId === query.project_id)
      .sort((a, b) => b.completedAt.localeCompare(a.completedAt));
    const scope = JSON.stringify([session.user.id, 'completed', query.since, query.until, query.project_id]);
    const { results, next_cursor } = paginate(completed, query, scope, wire);
    return { items: results, next_cursor };
  });

  app.get<{ Params: IdParams }>('/api/v1/tasks/:id', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    return wire(tasks.find(session.user, request.params.id));
  });

  app.post('/api/v1/tasks', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'add');
    const task = createOnce(
      context,
      session.user,
      request,
      (id) => tasks.find(session.user, id),
      () => {
        const body = parseWith(createTaskBody, request.body);
        return tasks.add(session.user, restTaskFields(body, dueContext(context, session.user)));
      },
    );
    return wire(task);
  });

  app.post<{ Params: IdParams }>('/api/v1/tasks/:id', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    const body = parseWith(updateTaskBody, request.body);
    const fields = restTaskFields(body, dueContext(context, session.user));
    return wire(tasks.update(session.user, request.params.id, fields));
  });

  /** `moveTask`: exactly one of `project_id`, `section_id`, `parent_id`; answers the moved task. */
  app.post<{ Params: IdParams }>('/api/v1/tasks/:id/move', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    const body = parseWith(taskMoveBody, request.body);
    const target = { projectId: body.project_id, sectionId: body.section_id, parentId: body.parent_id };
    return wire(tasks.move(session.user, request.params.id, target));
  });

  app.post<{ Params: IdParams }>('/api/v1/tasks/:id/close', async (request, reply) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    tasks.close(session.user, request.params.id);
    return reply.code(204).send();
  });

  app.post<{ Params: IdParams }>('/api/v1/tasks/:id/reopen', async (request, reply) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    tasks.reopen(session.user, request.params.id);
    return reply.code(204).send();
  });

  app.delete<{ Params: IdParams }>('/api/v1/tasks/:id', async (request, reply) => {
    const session = authenticate(context, request);
    requireScope(session, 'delete');
    tasks.delete(session.user, request.params.id);
    return reply.code(204).send();
  });
}
