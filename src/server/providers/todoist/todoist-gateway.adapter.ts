import type { ColorKey } from '@doist/todoist-sdk';
import type { TodoistConfig } from '#server/config.ts';
import {
  GrantRevokedError,
  LabelExistsError,
  ProviderRequestError,
  type ProviderTokens,
  ProviderUnauthorizedError,
  type TodoistGateway,
  type TodoistLabel,
  type TodoistProject,
} from '#server/domain/integrations/integration-providers.port.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { storableText } from '#shared/validation/storable-text.ts';
import { checkCallback } from '../shared/oauth-callback.ts';
import { toProjectSnapshot } from './todoist-project.mapper.ts';
import { isTodoistRequestError, todoistSdk } from './todoist-sdk.ts';

const PERMISSIONS = ['data:read_write', 'data:delete'] as const;
const PAGE_SIZE = 200;

/** Todoist (API v1 and its OAuth) through the official SDK; real or emulated, by config. */
export function createTodoistGateway(config: TodoistConfig, clock: Clock): TodoistGateway {
  const api = async (token: string) => new (await todoistSdk()).TodoistApi(token, { baseUrl: config.apiUrl });
  const credentials = { clientId: config.clientId, clientSecret: config.clientSecret };

  const toTokens = (response: { accessToken: string; refreshToken?: string; expiresIn?: number }) => ({
    accessToken: response.accessToken,
    refreshToken: response.refreshToken ?? null,
    expiresAt: response.expiresIn ? new Date(clock().getTime() + response.expiresIn * 1000) : null,
  });

  return {
    async authorizationUrl(flow, redirectUri) {
      const { getAuthorizationUrl } = await todoistSdk();
      const url = new URL(
        getAuthorizationUrl({
          clientId: config.clientId,
          permissions: PERMISSIONS,
          state: flow.state,
          baseUrl: config.oauthUrl,
        }),
      );
      // Todoist takes the redirect URI registered with the app; naming it also lets one app serve
      // several (the emulator requires it when none is registered).
      url.searchParams.set('redirect_uri', redirectUri);
      // Not documented by Todoist (which ignores unknown parameters); the sandbox emulator uses it.
      if (flow.loginHint) url.searchParams.set('login_hint', flow.loginHint);
      return url;
    },

    async exchange(callbackUrl, flow): Promise<ProviderTokens> {
      const code = checkCallback(callbackUrl, flow, 'Todoist');
      const { getAuthToken } = await todoistSdk();
      try {
        return toTokens(await getAuthToken({ ...credentials, code }, { baseUrl: config.oauthUrl }));
      } catch (error) {
        throw failure('Todoist code exchange failed', error);
      }
    },

    async refresh(refreshToken) {
      const { refreshAuthToken } = await todoistSdk();
      try {
        return toTokens(
          await refreshAuthToken({ ...credentials, refreshToken }, { baseUrl: config.oauthUrl }),
        );
      } catch (error) {
        const status = statusOf(error);
        if (status === 400 || status === 401)
          throw new GrantRevokedError('Todoist refused the refresh token');
        throw failure('Todoist token refresh failed', error);
      }
    },

    async revoke({ accessToken }) {
      const { revokeToken } = await todoistSdk();
      const revoked = await revokeToken(
        { ...credentials, token: accessToken },
        { baseUrl: config.apiUrl },
      ).catch((error: unknown) => {
        throw failure('Todoist revocation failed', error);
      });
      if (!revoked) throw new ProviderRequestError('Todoist did not confirm the revocation');
    },

    profile: (token) =>
      call('read the Todoist user', async () => {
        const user = await (await api(token)).getUser();
        return { userId: user.id, premiumStatus: user.premiumStatus, timezone: user.tzInfo.timezone || null };
      }),

    labels: (token) =>
      call('read the Todoist labels', async () => {
        const todoist = await api(token);
        const labels: TodoistLabel[] = [];
        let cursor: string | null = null;
        do {
          const page = await todoist.getLabels({ cursor, limit: PAGE_SIZE });
          for (const label of page.results) {
            labels.push({
              id: label.id,
              name: storableText(label.name),
              color: label.color,
              item_order: label.order ?? 0,
            });
          }
          cursor = page.nextCursor;
        } while (cursor);
        return labels;
      }),

    projects: (token) =>
      call('read the Todoist projects', async () => {
        const todoist = await api(token);
        const projects: TodoistProject[] = [];
        let cursor: string | null = null;
        do {
          const page = await todoist.getProjects({ cursor, limit: PAGE_SIZE });
          for (const project of page.results) {
            const { isArchived, isDeleted, ...listed } = toProjectSnapshot(project);
            if (!isArchived && !isDeleted) projects.push(listed);
          }
          cursor = page.nextCursor;
        } while (cursor);
        return projects;
      }),

    addLabel: (token, label) =>
      call('add a Todoist label', async () => {
        await (await api(token)).addLabel({ name: label.name, color: label.color as ColorKey });
      }),

    updateLabelColor: (token, labelId, color) =>
      call('update a Todoist label', async () => {
        await (await api(token)).updateLabel(labelId, { color: color as ColorKey });
      }),

    deleteLabel: (token, labelId) =>
      call('delete a Todoist label', async () => {
        await (await api(token)).deleteLabel(labelId);
      }),
  };
}

/** Runs an API call, turning the SDK's errors (which carry request details) into ours. */
async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const status = statusOf(error);
    if (status === 401) throw new ProviderUnauthorizedError(`Todoist refused the token (${what})`);
    if (tagOf(error) === 'LABEL_ALREADY_EXISTS') throw new LabelExistsError('The label already exists');
    throw failure(`Could not ${what}`, error);
  }
}

function statusOf(error: unknown): number | undefined {
  return isTodoistRequestError(error) ? error.httpStatusCode : undefined;
}

function tagOf(error: unknown): string | undefined {
  const data = isTodoistRequestError(error) ? error.responseData : undefined;
  if (typeof data !== 'object' || data === null) return undefined;
  const tag = 'error_tag' in data ? data.error_tag : 'errorTag' in data ? data.errorTag : undefined;
  return typeof tag === 'string' ? tag.slice(0, 60) : undefined;
}

function failure(message: string, error: unknown): ProviderRequestError {
  const tag = tagOf(error);
  const reason = isTodoistRequestError(error) ? '' : `: ${(error as Error)?.name ?? 'error'}`;
  return new ProviderRequestError(`${message}${tag ? ` [${tag}]` : ''}${reason}`, statusOf(error));
}
