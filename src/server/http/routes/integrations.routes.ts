import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IntegrationService } from '#server/domain/integrations/integration.service.ts';
import type { TodoistLabelService } from '#server/domain/integrations/todoist-label.service.ts';
import type { AccountReader } from '#server/domain/users/account.reader.ts';
import { contract } from '#shared/api/contract.ts';
import { labelColorKey } from '#shared/settings/label-colors.ts';
import { fromContract, userViewReader } from './contract-route.ts';

type Options = { integrations: IntegrationService; labels: TodoistLabelService; accounts: AccountReader };

/**
 * Per docs/product-rules.md §7: refreshing what the dashboard shows from the providers, and Todoist labels.
 * Each answers with the updated user.
 */
export async function integrationsRoutes(app: FastifyInstance, { integrations, labels, accounts }: Options) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const currentUser = userViewReader(accounts);
  const { integrations: refresh, todoistLabels } = contract;

  // A revoked grant is not an error here: the connection is marked and the user shows "connect again".
  routes.route({
    ...fromContract(refresh.refreshTodoist),
    // A GET that stores what the provider says: only from our own pages, like the other such GETs.
    config: { stateChangingGet: true },
    handler: async (request) => {
      const userId = await request.requireUserId();
      await integrations.refreshTodoist(userId);
      return currentUser(userId);
    },
  });

  routes.route({
    ...fromContract(refresh.refreshCalendar),
    // A GET that stores what the provider says: only from our own pages, like the other such GETs.
    config: { stateChangingGet: true },
    handler: async (request) => {
      const userId = await request.requireUserId();
      await integrations.refreshCalendar(userId);
      return currentUser(userId);
    },
  });

  routes.route({
    ...fromContract(refresh.removeCalendarAccount),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await integrations.removeAccount(userId, request.params.accountId);
      return currentUser(userId);
    },
  });

  routes.route({
    ...fromContract(refresh.syncWithCalendarAccount),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await integrations.syncWithAccount(userId, request.params.accountId);
      return currentUser(userId);
    },
  });

  routes.route({
    ...fromContract(todoistLabels.create),
    handler: async (request) => {
      const userId = await request.requireUserId();
      const { label, color } = request.body;
      await labels.createLabel(userId, { name: label, color: labelColorKey(color) });
      return currentUser(userId);
    },
  });

  routes.route({
    ...fromContract(todoistLabels.setColor),
    handler: async (request) => {
      const userId = await request.requireUserId();
      const { labelId, color } = request.body;
      await labels.updateLabelColor(userId, labelId, labelColorKey(color));
      return currentUser(userId);
    },
  });

  routes.route({
    ...fromContract(todoistLabels.delete),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await labels.deleteLabel(userId, request.params.labelId);
      return currentUser(userId);
    },
  });
}
