import {
  type ProjectScopeInput,
  type ProjectScopeMode,
  projectTree,
  type TodoistProject,
} from '#shared/settings/project-scope.ts';

/**
 * "Projects to sync" as the user edits it before saving (docs/product-rules.md §10 "Projects"): the
 * mode and the ticked projects. A sub-project of a ticked project is included with it, so it is shown
 * ticked and cannot be unticked on its own.
 */
export type ProjectDraft = { mode: ProjectScopeMode; chosen: readonly string[] };

/** The choice as the server answers it (`todoSettings.projectScope`); its ids may name projects gone from Todoist. */
export type SavedScope = { mode: ProjectScopeMode; projectIds: readonly string[] };

/** The schema's refusal of an empty choice (`projectScopeSchema`), said before the user tries. */
export const CHOOSE_ONE = 'Choose at least one project.';

export const draftOf = (saved: SavedScope): ProjectDraft => ({ mode: saved.mode, chosen: saved.projectIds });

export function toggleProject(draft: ProjectDraft, id: string): ProjectDraft {
  const chosen = draft.chosen.includes(id)
    ? draft.chosen.filter((entry) => entry !== id)
    : [...draft.chosen, id];
  return { ...draft, chosen };
}

export type ProjectRow = {
  id: string;
  name: string;
  /** Todoist's colour key of the project (shown as a dot beside its name). */
  color: string;
  depth: number;
  checked: boolean;
  /** The chosen ancestor whose sub-project this is: then it syncs with it and is not chosen on its own. */
  includedWith: string | null;
};

/** The nearest ancestor of `project` among `chosen`, if any. */
function chosenAncestor(
  project: TodoistProject,
  byId: ReadonlyMap<string, TodoistProject>,
  chosen: ReadonlySet<string>,
): TodoistProject | null {
  const seen = new Set<string>([project.id]);
  for (let at = project.parentId ? byId.get(project.parentId) : undefined; at; ) {
    if (seen.has(at.id)) return null; // a cycle in what Todoist sent: no ancestor to speak of
    if (chosen.has(at.id)) return at;
    seen.add(at.id);
    at = at.parentId ? byId.get(at.parentId) : undefined;
  }
  return null;
}

/** The checklist: every project in tree order, ticked when chosen or included with a chosen ancestor. */
export function projectRows(projects: readonly TodoistProject[], chosen: readonly string[]): ProjectRow[] {
  const byId = new Map(projects.map((project) => [project.id, project]));
  const picked = new Set(chosen);
  return projectTree(projects).map(({ project, depth }) => {
    const ancestor = chosenAncestor(project, byId, picked);
    return {
      id: project.id,
      name: project.name,
      color: project.color,
      depth,
      checked: ancestor !== null || picked.has(project.id),
      includedWith: ancestor?.name ?? null,
    };
  });
}

/**
 * What saving the draft sends: no ids for all projects; else the chosen projects Todoist still lists,
 * in tree order, without those already included with a chosen ancestor (the server would refuse an id
 * it no longer lists).
 */
export function scopeOf(draft: ProjectDraft, projects: readonly TodoistProject[]): ProjectScopeInput {
  if (draft.mode === 'all') return { mode: 'all', projectIds: [] };
  const byId = new Map(projects.map((project) => [project.id, project]));
  const picked = new Set(draft.chosen);
  const projectIds = projectTree(projects)
    .map(({ project }) => project)
    .filter((project) => picked.has(project.id) && chosenAncestor(project, byId, picked) === null)
    .map((project) => project.id);
  return { mode: 'chosen', projectIds };
}

/**
 * Whether the draft differs from what is saved (`changed`) or from where the form started (`edited`),
 * and whether it can be saved. A saved project that Todoist no longer lists counts as a difference, so
 * "Save" stays offered until the choice is made again; there is nothing to undo then.
 */
export function draftStatus(draft: ProjectDraft, saved: SavedScope, projects: readonly TodoistProject[]) {
  const scope = scopeOf(draft, projects);
  const byId = new Map(projects.map((project) => [project.id, project]));
  const savedIds = new Set(saved.projectIds);
  const savedShown = saved.projectIds.filter((id) => {
    const project = byId.get(id);
    return !project || chosenAncestor(project, byId, savedIds) === null;
  });
  const same =
    scope.mode === saved.mode &&
    (scope.mode === 'all' ||
      (scope.projectIds.length === savedShown.length &&
        scope.projectIds.every((id) => savedShown.includes(id))));
  const empty = scope.mode === 'chosen' && scope.projectIds.length === 0;
  // Against the draft the form started from: only then is there something to undo.
  const start = scopeOf(draftOf(saved), projects);
  const edited =
    scope.mode !== start.mode ||
    scope.projectIds.length !== start.projectIds.length ||
    scope.projectIds.some((id) => !start.projectIds.includes(id));
  return { scope, changed: !same, edited, empty, canSave: !same && !empty };
}

/** The confirmation's title (shown while sync is on). */
export function scopeChangeTitle(scope: ProjectScopeInput, projects: readonly TodoistProject[]): string {
  if (scope.mode === 'all') return 'Sync all projects?';
  if (scope.projectIds.length === 1) {
    const name = projects.find((project) => project.id === scope.projectIds[0])?.name;
    if (name) return `Sync only “${name}”?`;
  }
  return `Sync only these ${scope.projectIds.length} projects?`;
}
