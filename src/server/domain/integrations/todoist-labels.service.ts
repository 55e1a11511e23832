import type { Clock } from '../shared/clock.ts';
import { type IntegrationLog, IntegrationUnavailableError } from './integration.service.ts';
import { LabelExistsError, ProviderRequestError, type TodoistGateway } from './integration-providers.ts';
import type { IntegrationSettingsRepository } from './integration-settings.repository.ts';
import type { TokenManager } from './token-manager.ts';

/** The label id is not one of the user's labels as we last read them from Todoist. */
export class UnknownLabelError extends Error {
  override name = 'UnknownLabelError';
}

type Deps = {
  tokens: TokenManager;
  settings: IntegrationSettingsRepository;
  todoist: TodoistGateway | null;
  clock: Clock;
  log: IntegrationLog;
};

export type TodoistLabelService = ReturnType<typeof createTodoistLabelService>;

/**
 * Creates, recolours and deletes labels in the user's Todoist, then re-reads the labels so the stored
 * list matches Todoist. Only label ids from the user's own stored list are acted on.
 */
export function createTodoistLabelService(deps: Deps) {
  const { tokens, settings, clock, log } = deps;
  const gateway = () => {
    if (!deps.todoist) throw new IntegrationUnavailableError('todoist is not configured');
    return deps.todoist;
  };

  const withTodoist = <T>(userId: string, call: (gateway: TodoistGateway, token: string) => Promise<T>) =>
    tokens.withAccessToken(userId, 'todoist', (token) => call(gateway(), token));

  async function refreshLabels(userId: string): Promise<void> {
    const labels = await withTodoist(userId, (todoist, token) => todoist.labels(token));
    await settings.saveTodoistLabels(
      userId,
      [...labels].sort((a, b) => a.item_order - b.item_order),
      clock(),
    );
  }

  async function ownLabel(userId: string, labelId: string): Promise<void> {
    const labels = await settings.labels(userId);
    if (!labels.some((label) => label.id === labelId)) {
      throw new UnknownLabelError('This label is not in your Todoist account.');
    }
  }

  const isNotFound = (error: unknown) => error instanceof ProviderRequestError && error.status === 404;

  return {
    refreshLabels,

    async createLabel(userId: string, label: { name: string; color: string }): Promise<void> {
      try {
        await withTodoist(userId, (todoist, token) => todoist.addLabel(token, label));
      } catch (error) {
        // Our list was out of date: the label the user asked for is there, which is what they wanted.
        if (!(error instanceof LabelExistsError)) throw error;
        log.info({ userId }, 'label already in Todoist; refreshing the stored labels');
      }
      await refreshLabels(userId);
    },

    async updateLabelColor(userId: string, labelId: string, color: string): Promise<void> {
      await ownLabel(userId, labelId);
      try {
        await withTodoist(userId, (todoist, token) => todoist.updateLabelColor(token, labelId, color));
      } catch (error) {
        if (!isNotFound(error)) throw error;
        await refreshLabels(userId);
        throw new UnknownLabelError('This label no longer exists in your Todoist account.');
      }
      await refreshLabels(userId);
    },

    async deleteLabel(userId: string, labelId: string): Promise<void> {
      await ownLabel(userId, labelId);
      try {
        await withTodoist(userId, (todoist, token) => todoist.deleteLabel(token, labelId));
      } catch (error) {
        if (!isNotFound(error)) throw error; // already gone in Todoist: nothing left to delete
      }
      await refreshLabels(userId);
    },
  };
}
