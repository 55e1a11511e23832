import type { ProjectSnapshot } from '#server/sync/task-source.port.ts';
import { storableText } from '#shared/validation/storable-text.ts';

/**
 * A Todoist project as the SDK reads it (the Sync API's `projects` and `GET /projects`): personal
 * projects name a parent and the Inbox; workspace projects have neither.
 */
type SdkProject = {
  id: string;
  name: string;
  color: string;
  childOrder: number;
  isArchived: boolean;
  isDeleted: boolean;
  parentId?: string | null;
  inboxProject?: boolean;
};

export function toProjectSnapshot(project: SdkProject): ProjectSnapshot {
  return {
    id: project.id,
    name: storableText(project.name),
    color: project.color,
    parentId: project.parentId ?? null,
    inbox: project.inboxProject ?? false,
    order: project.childOrder,
    isArchived: project.isArchived,
    isDeleted: project.isDeleted,
  };
}
