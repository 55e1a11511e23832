import { sortLabels } from '#shared/settings/rules.ts';
import type { SettingsRepository } from '../settings/settings.repository.ts';
import type { Clock } from '../shared/clock.port.ts';
import { NotConfiguredError, StateConflictError } from '../shared/domain-errors.ts';
import type { IntegrationLog } from './integration.service.ts';
import {
  failingAs,
  LabelExistsError,
  ProviderRequestError,
  type TodoistGateway,
} from './integration-providers.port.ts';
import type { TokenManager } from './token-manager.ts';

type Deps = {
  tokens: TokenManager;
  settings: Pick<SettingsRepository, 'labels' | 'saveTodoistLabels'>;
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
    if (!deps.todoist) throw new NotConfiguredError('todoist');
    return deps.todoist;
  };

  const withTodoist = <T>(userId: string, call: (gateway: TodoistGateway, token: string) => Promise<T>) =>
    tokens.withAccessToken(userId, 'todoist', (token) => call(gateway(), token));

  async function refreshLabels(userId: string): Promise<void> {
    const labels = await withTodoist(userId, (todoist, token) => todoist.labels(token));
    await settings.saveTodoistLabels(userId, sortLabels(labels), clock());
  }

  async function ownLabel(userId: string, labelId: string): Promise<void> {
    const labels = await settings.labels(userId);
    if (!labels.some((label) => label.id === labelId)) {
      throw new StateConflictError('This label is not in your Todoist account.');
    }
  }

  const isNotFound = (error: unknown) => error instanceof ProviderRequestError && error.status === 404;

  return {
    refreshLabels: (userId: string) => failingAs('todoist', () => refreshLabels(userId)),

    createLabel: (userId: string, label: { name: string; color: string }) =>
      failingAs('todoist', async () => {
        try {
          await withTodoist(userId, (todoist, token) => todoist.addLabel(token, label));
        } catch (error) {
          // Our list was out of date: the label the user asked for is there, which is what they wanted.
          if (!(error instanceof LabelExistsError)) throw error;
          log.info({ userId }, 'label already in Todoist; refreshing the stored labels');
        }
        await refreshLabels(userId);
      }),

    updateLabelColor: (userId: string, labelId: string, color: string) =>
      failingAs('todoist', async () => {
        await ownLabel(userId, labelId);
        try {
          await withTodoist(userId, (todoist, token) => todoist.updateLabelColor(token, labelId, color));
        } catch (error) {
          if (!isNotFound(error)) throw error;
          await refreshLabels(userId);
          throw new StateConflictError('This label no longer exists in your Todoist account.');
        }
        await refreshLabels(userId);
      }),

    deleteLabel: (userId: string, labelId: string) =>
      failingAs('todoist', async () => {
        await ownLabel(userId, labelId);
        try {
          await withTodoist(userId, (todoist, token) => todoist.deleteLabel(token, labelId));
        } catch (error) {
          if (!isNotFound(error)) throw error; // already gone in Todoist: nothing left to delete
        }
        await refreshLabels(userId);
      }),
  };
}
