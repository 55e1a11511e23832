import type { FastifyInstance } from 'fastify';
import { readParams } from '../shared/params.ts';
import { authenticate, requireScope } from './todoist.auth.ts';
import type { TodoistContext } from './todoist.context.ts';
import type { LabelOperations } from './todoist.label-operations.ts';
import { restLabelWire } from './todoist.mappers.ts';
import { paginate } from './todoist.pagination.ts';
import { createOnce } from './todoist.request-ids.ts';
import { createLabelBody, parseWith, restLabelFields, updateLabelBody } from './todoist.rest-schemas.ts';

type IdParams = { id: string };

export function registerLabelRoutes(
  app: FastifyInstance,
  context: TodoistContext,
  labels: LabelOperations,
): void {
  app.get('/api/v1/labels', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    const query = readParams(request.query);
    const active = context.store.userLabels(session.user.id).filter((label) => !label.isDeleted);
    return paginate(active, query, JSON.stringify([session.user.id, 'labels']), restLabelWire);
  });

  app.get<{ Params: IdParams }>('/api/v1/labels/:id', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'read');
    return restLabelWire(labels.find(session.user, request.params.id));
  });

  app.post('/api/v1/labels', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    const label = createOnce(
      context,
      session.user,
      request,
      (id) => labels.find(session.user, id),
      () => {
        const body = parseWith(createLabelBody, request.body);
        return labels.add(session.user, { ...restLabelFields(body), name: body.name });
      },
    );
    return restLabelWire(label);
  });

  app.post<{ Params: IdParams }>('/api/v1/labels/:id', async (request) => {
    const session = authenticate(context, request);
    requireScope(session, 'write');
    const body = parseWith(updateLabelBody, request.body);
    return restLabelWire(labels.update(session.user, request.params.id, restLabelFields(body)));
  });

  app.delete<{ Params: IdParams }>('/api/v1/labels/:id', async (request, reply) => {
    const session = authenticate(context, request);
    requireScope(session, 'delete');
    labels.delete(session.user, request.params.id);
    return reply.code(204).send();
  });
}
