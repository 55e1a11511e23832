import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import { projectsInScope } from '#shared/settings/project-scope.ts';

/**
 * The warning when chosen projects were archived or deleted in Todoist (docs/product-rules.md §10
 * "Projects": "A chosen project that is archived or deleted is named on the dashboard"). One text for
 * the What syncs card and the dashboard's Status, each adding where to choose again.
 */

const names = (missing: readonly { name: string }[]) =>
  new Intl.ListFormat('en', { type: 'conjunction' }).format(
    missing.map((project) => `“${project.name || 'A project'}”`),
  );

/** Null when nothing chosen is missing. */
export function missingProjectsText(todo: Pick<TodoSettings, 'projects' | 'projectScope'>): string | null {
  const { missing } = todo.projectScope;
  if (missing.length === 0) return null;
  const one = missing.length === 1;
  const lines = [
    `${names(missing)} ${one ? 'was' : 'were'} archived or deleted in Todoist: ${one ? 'its' : 'their'} tasks no longer sync.`,
  ];
  // With every chosen project gone, no task syncs and no event becomes a task (projectForNewTasks).
  if (projectsInScope(todo.projects, todo.projectScope)?.size === 0) {
    lines.push('No project you chose is left, so nothing syncs until you choose again.');
  }
  return lines.join(' ');
}
