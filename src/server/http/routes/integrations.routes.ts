import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type IntegrationService,
  IntegrationUnavailableError,
} from '#server/domain/integrations/integration.service.ts';
import { ProviderRequestError } from '#server/domain/integrations/integration-providers.ts';
import {
  type TodoistLabelService,
  UnknownLabelError,
} from '#server/domain/integrations/todoist-labels.service.ts';
import { NotConnectedError, ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
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
    await explain(request.log, 'Todoist', () => integrations.refreshTodoist(userId));
    return currentUser(userId);
  });

  routes.get('/api/calendar/updateuserprofile', async (request) => {
    const userId = await request.requireUserId();
    await explain(request.log, 'your calendar', () => integrations.refreshCalendar(userId));
    return currentUser(userId);
  });

  routes.post('/api/todoist/label', { schema: { body: createTodoistLabelSchema } }, async (request) => {
    const userId = await request.requireUserId();
    const { label, color } = request.body;
    await explain(request.log, 'Todoist', () =>
      labels.createLabel(userId, { name: label, color: labelColorKey(color) }),
    );
    return currentUser(userId);
  });

  routes.patch('/api/todoist/label', { schema: { body: updateTodoistLabelSchema } }, async (request) => {
    const userId = await request.requireUserId();
    const { labelId, color } = request.body;
    await explain(request.log, 'Todoist', () =>
      labels.updateLabelColor(userId, labelId, labelColorKey(color)),
    );
    return currentUser(userId);
  });

  routes.delete(
    '/api/todoist/label/:labelId',
    { schema: { params: todoistLabelParamSchema } },
    async (request) => {
      const userId = await request.requireUserId();
      await explain(request.log, 'Todoist', () => labels.deleteLabel(userId, request.params.labelId));
      return currentUser(userId);
    },
  );
}

/** Runs the work, turning what can go wrong with a provider into a message for the user. */
async function explain(log: FastifyBaseLogger, provider: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof UnknownLabelError) throw new AppError('conflict', error.message);
    if (error instanceof NotConnectedError) {
      throw new AppError('conflict', `Please connect ${provider} first.`);
    }
    if (error instanceof ReconnectRequiredError) {
      throw new AppError('conflict', `Please connect ${provider} again: it no longer accepts our access.`);
    }
    if (error instanceof IntegrationUnavailableError) {
      throw new AppError('not_configured', 'This integration is not available right now.');
    }
    if (error instanceof ProviderRequestError) {
      log.warn({ err: error }, 'provider request failed');
      const subject = `${provider.charAt(0).toUpperCase()}${provider.slice(1)}`;
      throw new AppError('upstream_error', `${subject} did not answer as expected. Please try again.`);
    }
    throw error;
  }
}
