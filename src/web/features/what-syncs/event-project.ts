import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import { projectForNewTasks, projectsInScope, projectTree } from '#shared/settings/project-scope.ts';

/**
 * "New tasks from events go to" (docs/product-rules.md §10 "Projects"): the projects that sync, and the
 * one new tasks actually go to, which is the saved one only while it syncs (`projectForNewTasks`).
 */

type Todo = Pick<TodoSettings, 'projects' | 'projectScope' | 'eventProjectId'>;

export type ProjectOption = { value: string; label: string; depth: number };

const inScopeOf = (todo: Todo) => projectsInScope(todo.projects, todo.projectScope);

/**
 * The projects that sync, in tree order. `depth` counts only ancestors that are options too, so a chosen
 * sub-project whose parent does not sync is not indented under nothing.
 */
export function eventProjectOptions(todo: Todo): ProjectOption[] {
  const inScope = inScopeOf(todo);
  const shown = projectTree(todo.projects).filter(({ project }) => !inScope || inScope.has(project.id));
  const depthOf = new Map<string, number>();
  return shown.map(({ project }) => {
    const parentDepth = project.parentId === null ? undefined : depthOf.get(project.parentId);
    const depth = parentDepth === undefined ? 0 : parentDepth + 1;
    depthOf.set(project.id, depth);
    return { value: project.id, label: project.name, depth };
  });
}

/** The select's value: the project new tasks go to now; null when none can (no project syncs) or none is known. */
export function effectiveEventProject(todo: Todo): string | null {
  if (todo.projects.length === 0) return null;
  return projectForNewTasks(todo.projects, inScopeOf(todo), todo.eventProjectId) ?? null;
}

/** Whether no project syncs at all (every chosen one gone): then no event becomes a task. */
export function noProjectSyncs(todo: Todo): boolean {
  return inScopeOf(todo)?.size === 0;
}

/**
 * What choosing an option saves. The Inbox is saved as null, the default, rather than by its id: a user
 * who picks the Inbox means "Todoist's Inbox", which is also what a user who never chose gets, so both
 * read the same and follow the Inbox whatever its id.
 */
export function toEventProjectId(todo: Pick<Todo, 'projects'>, value: string): string | null {
  return todo.projects.find((project) => project.id === value)?.inbox ? null : value;
}

/** Why new tasks do not go where the user said, when they do not; null when they do. */
export function eventProjectNote(todo: Todo): string | null {
  if (todo.projects.length === 0) return null;
  if (noProjectSyncs(todo)) return 'No project you chose is left in Todoist, so no event becomes a task.';
  const effective = effectiveEventProject(todo);
  const nameOf = (id: string | null) => todo.projects.find((project) => project.id === id)?.name;
  const goesTo = `new tasks go to “${nameOf(effective)}”`;
  const inbox = todo.projects.find((project) => project.inbox);
  if (todo.eventProjectId === null) {
    return inbox && inbox.id !== effective ? `Your Inbox does not sync, so ${goesTo}.` : null;
  }
  if (todo.eventProjectId === effective) return null;
  const named = nameOf(todo.eventProjectId);
  return named
    ? `“${named}” does not sync, so ${goesTo}.`
    : `The project you chose is no longer in Todoist, so ${goesTo}.`;
}
