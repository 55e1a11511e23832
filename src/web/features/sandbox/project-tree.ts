import type { SandboxProject } from '#shared/api/sandbox.schema.ts';
import { countOf } from '#shared/text/count-of.ts';

/** Each level of sub-projects is indented this much, as in Todoist's sidebar. */
export const PROJECT_INDENT_PX = 16;

export type ProjectOption = { value: string; label: string; depth: number };

/** How deep each project sits; the console lists every parent before its sub-projects. */
export function projectDepths(projects: SandboxProject[]): Map<string, number> {
  const depths = new Map<string, number>();
  for (const project of projects) {
    const parentDepth = project.parentId === null ? undefined : depths.get(project.parentId);
    depths.set(project.id, parentDepth === undefined ? 0 : parentDepth + 1);
  }
  return depths;
}

/** The projects as select options, in the list's order, each with its depth for indenting. */
export function projectOptions(projects: SandboxProject[]): ProjectOption[] {
  const depths = projectDepths(projects);
  return projects.map((project) => ({
    value: project.id,
    label: project.name,
    depth: depths.get(project.id) ?? 0,
  }));
}

/** What a project's row says after its name. */
export function openTaskCount(count: number): string {
  return countOf(count, 'open task');
}
