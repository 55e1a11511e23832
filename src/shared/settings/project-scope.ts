import { z } from 'zod';

/**
 * Which Todoist projects sync (docs/product-rules.md §10 "Projects"): every project, or the ones the user
 * chose with their sub-projects; and the project new tasks from events go to. Pure rules shared by the
 * settings screen and the sync, so both say the same about which tasks are in scope.
 */

/** A project of the user's Todoist as the settings screen needs it (names are not kept beyond this). */
export const todoistProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  parentId: z.string().nullable(),
  /** Todoist's Inbox: where a task goes when no project is named. */
  inbox: z.boolean(),
  /** The order among its siblings (Todoist's `child_order`). */
  order: z.number(),
});
export type TodoistProject = z.infer<typeof todoistProjectSchema>;

export const PROJECT_SCOPE_MODES = ['all', 'chosen'] as const;
export type ProjectScopeMode = (typeof PROJECT_SCOPE_MODES)[number];
/** At most this many chosen projects (Todoist's own limit on projects is lower for every plan). */
export const MAX_CHOSEN_PROJECTS = 500;

const projectId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w-]+$/, 'A project id is letters, digits, - and _.');

/** `PATCH /api/settings/projects`. */
export const projectScopeSchema = z
  .object({
    mode: z.enum(PROJECT_SCOPE_MODES),
    projectIds: z.array(projectId).max(MAX_CHOSEN_PROJECTS),
  })
  .refine((scope) => scope.mode === 'all' || scope.projectIds.length > 0, {
    message: 'Choose at least one project.',
    path: ['projectIds'],
  })
  .refine((scope) => new Set(scope.projectIds).size === scope.projectIds.length, {
    message: 'Name each project once.',
    path: ['projectIds'],
  });
export type ProjectScopeInput = z.infer<typeof projectScopeSchema>;

/** `PATCH /api/settings/eventproject`: null is the Inbox. */
export const eventProjectSchema = z.object({ projectId: projectId.nullable() });

/** The choice as kept: a chosen project's name is kept too, so its loss can be named on the dashboard. */
export type ProjectScope = { mode: ProjectScopeMode; projects: { id: string; name: string }[] };
export const ALL_PROJECTS: ProjectScope = { mode: 'all', projects: [] };

/** The projects as the settings screen lists them: each parent followed by its sub-projects, in order. */
export function projectTree(
  projects: readonly TodoistProject[],
): { project: TodoistProject; depth: number }[] {
  const known = new Set(projects.map((project) => project.id));
  const children = new Map<string | null, TodoistProject[]>();
  for (const project of projects) {
    // A project whose parent is not listed (archived, say) shows at the root.
    const parent = project.parentId !== null && known.has(project.parentId) ? project.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), project]);
  }
  const byOrder = (a: TodoistProject, b: TodoistProject) =>
    Number(b.inbox) - Number(a.inbox) || a.order - b.order || a.id.localeCompare(b.id);
  const out: { project: TodoistProject; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const project of [...(children.get(parent) ?? [])].sort(byOrder)) {
      out.push({ project, depth });
      walk(project.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/**
 * The ids of the projects whose tasks sync: every listed project, or the chosen ones that are still
 * listed and all their sub-projects. Null when no project list is known yet (before the first read of
 * the account): then no task is left out for its project.
 */
export function projectsInScope(
  projects: readonly TodoistProject[],
  scope: Pick<ProjectScope, 'mode'> & { projectIds: readonly string[] },
): Set<string> | null {
  if (projects.length === 0) return null;
  if (scope.mode === 'all') return new Set(projects.map((project) => project.id));
  const inScope = new Set<string>();
  const chosen = new Set(scope.projectIds);
  const byId = new Map(projects.map((project) => [project.id, project]));
  for (const project of projects) {
    // A project is in scope when it or one of its ancestors was chosen.
    for (
      let at: TodoistProject | undefined = project;
      at;
      at = at.parentId ? byId.get(at.parentId) : undefined
    ) {
      if (chosen.has(at.id)) {
        inScope.add(project.id);
        break;
      }
    }
  }
  return inScope;
}

/**
 * The choice with the current names of the chosen projects Todoist lists (so a project renamed and then
 * archived is named by its last name); null when no name changed.
 */
export function renamedChoice(scope: ProjectScope, projects: readonly TodoistProject[]): ProjectScope | null {
  const names = new Map(projects.map((project) => [project.id, project.name]));
  const renamed = scope.projects.map((chosen) => ({
    id: chosen.id,
    name: names.get(chosen.id) ?? chosen.name,
  }));
  return renamed.some((chosen, index) => chosen.name !== scope.projects[index]?.name)
    ? { ...scope, projects: renamed }
    : null;
}

/** Chosen projects no longer in the account's active projects (archived or deleted in Todoist). */
export function missingProjects(
  projects: readonly TodoistProject[],
  scope: ProjectScope,
): { id: string; name: string }[] {
  if (scope.mode === 'all' || projects.length === 0) return [];
  const listed = new Set(projects.map((project) => project.id));
  return scope.projects.filter((chosen) => !listed.has(chosen.id));
}

/**
 * Where a task made from an event goes: the project the user named while it syncs; else the Inbox
 * while it syncs; else the first project in scope (in the settings screen's order). Null: Todoist's
 * default (the Inbox), when no project list is known. Undefined: no project of the account syncs, so
 * no task can be made.
 */
export function projectForNewTasks(
  projects: readonly TodoistProject[],
  inScope: ReadonlySet<string> | null,
  eventProjectId: string | null,
): string | null | undefined {
  if (inScope === null) return eventProjectId;
  const tree = projectTree(projects).map(({ project }) => project);
  const named = eventProjectId === null ? undefined : tree.find((project) => project.id === eventProjectId);
  if (named && inScope.has(named.id)) return named.id;
  const inbox = tree.find((project) => project.inbox);
  if (inbox && inScope.has(inbox.id)) return inbox.id;
  return tree.find((project) => inScope.has(project.id))?.id;
}
