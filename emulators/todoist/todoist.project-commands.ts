import type { z } from 'zod';
import type { ProjectFields, ProjectOperations } from './todoist.project-operations.ts';
import type { UserRecord } from './todoist.records.ts';
import { byId, projectAdd, type projectArgs, projectMove, projectUpdate } from './todoist.sync-args.ts';
import { command, type Handler } from './todoist.sync-handler.ts';

function projectFields(args: z.infer<typeof projectArgs>): ProjectFields {
  return {
    name: args.name,
    color: args.color,
    description: args.description,
    viewStyle: args.view_style,
    isFavorite: args.is_favorite,
    isCollapsed: args.is_collapsed,
    childOrder: args.child_order,
  };
}

/** The `project_*` Sync commands (ids may be temp ids of an earlier `project_add`). */
export function projectCommands(projects: ProjectOperations, user: UserRecord): Record<string, Handler> {
  return {
    project_add: command(
      'write',
      projectAdd,
      (args) => projects.add(user, { ...projectFields(args), name: args.name, parentId: args.parent_id }).id,
    ),
    project_update: command('write', projectUpdate, (args) => {
      projects.update(user, args.id, projectFields(args));
    }),
    project_move: command('write', projectMove, (args) => {
      projects.move(user, args.id, args.parent_id);
    }),
    project_archive: command('write', byId, (args) => {
      projects.archive(user, args.id);
    }),
    project_unarchive: command('write', byId, (args) => {
      projects.unarchive(user, args.id);
    }),
    project_delete: command('deleteProject', byId, (args) => {
      projects.delete(user, args.id);
    }),
  };
}
