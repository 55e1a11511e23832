import { INTEGRATION_KEY_OF, type IntegrationName } from '#shared/api/auth.schema.ts';
import { contract } from '#shared/api/contract.ts';
import { api } from '../../lib/api-client.ts';

export type IntegrationProvider = IntegrationName;

export const dashboardCalls = {
  revoke: (provider: IntegrationProvider) => api(contract.integrations.revoke[INTEGRATION_KEY_OF[provider]]),
  setSyncActive: (active: boolean) => api(contract.settings.setSyncActive, { setting: active }),
};
