import type { TodoistProject } from '#shared/settings/project-scope.ts';
import type { ProjectSnapshot } from '../task-source.port.ts';

/**
 * The account's active projects after a read of Todoist: a full read lists them all; an incremental
 * one brings those changed (archived and deleted ones leave the list). Null: nothing to change, which
 * includes an incremental read while no list is known yet (it names only the projects that changed,
 * and a list of those alone would leave every other project's tasks out).
 */
export function projectsAfterRead(
  stored: readonly TodoistProject[],
  read: readonly ProjectSnapshot[],
  full: boolean,
): TodoistProject[] | null {
  if (!full && (read.length === 0 || stored.length === 0)) return null;
  const byId = new Map(full ? [] : stored.map((project) => [project.id, project]));
  for (const { isArchived, isDeleted, ...project } of read) {
    if (isArchived || isDeleted) byId.delete(project.id);
    else byId.set(project.id, project);
  }
  return [...byId.values()].sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
}
