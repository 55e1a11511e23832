import { contract } from '#shared/api/contract.ts';
import type { DatedTasksSetting } from '#shared/settings/dated-tasks.ts';
import type { ProjectScopeInput } from '#shared/settings/project-scope.ts';
import { api } from '../../lib/api-client.ts';

const { settings } = contract;

export const whatSyncsCalls = {
  setProjectScope: (scope: ProjectScopeInput) => api(settings.setProjectScope, scope),
  /** null: the Inbox (see `toEventProjectId`). */
  setEventProject: (projectId: string | null) => api(settings.setEventProject, { projectId }),
  setDatedTasks: (setting: DatedTasksSetting) => api(settings.setDatedTasks, { setting }),
};
