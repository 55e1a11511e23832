import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IntegrationService } from '#server/domain/integrations/integration.service.ts';
import type { TodoistLabelService } from '#server/domain/integrations/todoist-labels.service.ts';
import type { AccountReader } from '#server/domain/users/account.repository.ts';
import { AppError } from '#server/errors.ts';
import { labelColorKey } from '#shared/settings/label-colors.ts';
import {
  createTodoistLabelSchema,
  todoistLabelParamSchema,
  updateTodoistLabelSchema,
} from '#shared/settings/settings.schema.ts';

type Options = { integrations: IntegrationService; labels: TodoistLabelService; accounts: AccountReader };

/**
 * Spec §7: refreshing what the dashboard shows from the providers, and Todoist labels. Each answers
 * with the updated user.
 */
export async function integrationsRoutes(app: FastifyInstance, { integrations, labels, accounts }: Options) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const currentUser = async (userId: string) => {
    const user = await accounts.currentUser(userId);
    if (!user) throw new AppError('unauthorized', 'Please log in to access your account.');
    return user;
  };

  // A revoked grant is not an error here: the connection is marked and the user shows "connect again".
  routes.get('/api/todoist/updateuserprofile', async (request) => {
    const userId = await request.requireUserId();
    await integrations.refreshTodoist(userId);
    return currentUser(userId);
  });

  routes.get('/api/calendar/updateuserprofile', async (request) => {
    const userId = await request.requireUserId();
    await integrations.refreshCalendar(userId);
    return currentUser(userId);
  });

  routes.post('/api/todoist/label', { schema: { body: createTodoistLabelSchema } }, async (request) => {
    const userId = await request.requireUserId();
    const { label, color } = request.body;
    await labels.createLabel(userId, { name: label, color: labelColorKey(color) });
    return currentUser(userId);
  });

  routes.patch('/api/todoist/label', { schema: { body: updateTodoistLabelSchema } }, async (request) => {
    const userId = await request.requireUserId();
    const { labelId, color } = request.body;
    await labels.updateLabelColor(userId, labelId, labelColorKey(color));
    return currentUser(userId);
  });

  routes.delete(
    '/api/todoist/label/:labelId',
    { schema: { params: todoistLabelParamSchema } },
    async (request) => {
      const userId = await request.requireUserId();
      await labels.deleteLabel(userId, request.params.labelId);
      return currentUser(userId);
    },
  );
}
