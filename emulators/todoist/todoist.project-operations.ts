import { LABEL_COLORS } from '#shared/settings/constants.ts';
import type { TodoistContext } from './todoist.context.ts';
import { errors } from './todoist.errors.ts';
import { projectWire } from './todoist.mappers.ts';
import type { ProjectRecord, ProjectViewStyle, UserRecord } from './todoist.records.ts';
import type { WebhookEvent } from './todoist.webhooks.ts';

export type ProjectFields = {
  name?: string;
  color?: string;
  description?: string;
  viewStyle?: ProjectViewStyle;
  isFavorite?: boolean;
  isCollapsed?: boolean;
  childOrder?: number;
};

export type ProjectOperations = ReturnType<typeof createProjectOperations>;

/**
 * Personal projects, shared by the REST endpoints and Sync commands. What Todoist documents
 * (developer.todoist.com/api/v1: Sync › Projects, Projects, Webhooks, Authorization):
 * - `project_archive` archives "a project and its descendants"; `project_unarchive` unarchives the
 *   project alone, which "loses any parent relationship (becomes a root project), and is placed at the
 *   end of the list of other root projects" (read here as: when its parent is still archived).
 * - `project_delete` deletes "a project and all its descendants"; DELETE /projects/{id} "a project and
 *   all of its sections and tasks". Deleting needs the `project:delete` scope.
 * - A full sync returns the "active" data and GET /projects "all active user projects": archived
 *   projects (and, here, their tasks) leave those lists; GET /projects/archived lists them.
 * - Webhooks: `project:added|updated|deleted|archived|unarchived`, `event_data` the project.
 * Not documented, the emulator's choices: the Inbox cannot be archived, deleted, moved or be a
 * parent (the error is in `errors.inboxProtected`); a move is a `project:updated`; deleting sends no
 * `item:deleted` for the project's tasks.
 */
export function createProjectOperations(context: TodoistContext) {
  const { store, clock, webhooks } = context;

  function find(user: UserRecord, id: string): ProjectRecord {
    const project = store.projects.get(store.resolveId(user.id, id));
    if (!project || project.userId !== user.id || project.isDeleted) throw errors.projectNotFound();
    return project;
  }

  function descendants(project: ProjectRecord): ProjectRecord[] {
    const children = store
      .userProjects(project.userId)
      .filter((candidate) => candidate.parentId === project.id && !candidate.isDeleted);
    return children.flatMap((child) => [child, ...descendants(child)]);
  }

  function changed(user: UserRecord, project: ProjectRecord, event: WebhookEvent): void {
    project.updatedAt = clock.stamp();
    store.touch(project);
    webhooks.emit(user, event, projectWire(project));
  }

  /** The order that puts a project last among the active projects under `parentId`. */
  function lastOrder(userId: string, parentId: string | null): number {
    const siblings = store
      .userProjects(userId)
      .filter((project) => !project.isDeleted && !project.isArchived && project.parentId === parentId);
    return Math.max(0, ...siblings.map((project) => project.childOrder)) + 1;
  }

  function checkName(name: string): string {
    const trimmed = name.trim();
    if (!trimmed) throw errors.invalid('name', 'Project names cannot be empty');
    return trimmed;
  }

  function checkColor(color: string | undefined): void {
    if (color !== undefined && !(LABEL_COLORS as readonly string[]).includes(color))
      throw errors.invalid('color');
  }

  /** The parent a project goes under: an active project other than the Inbox, and not inside `moving`. */
  function parentFor(
    user: UserRecord,
    parentId: string | null | undefined,
    moving?: ProjectRecord,
  ): ProjectRecord | null {
    if (parentId === undefined || parentId === null) return null;
    const parent = find(user, parentId);
    if (parent.isInbox) throw errors.invalid('parent_id', 'The Inbox project cannot have sub-projects');
    if (parent.isArchived) throw errors.invalid('parent_id', 'The parent project is archived');
    if (moving && (parent === moving || descendants(moving).includes(parent))) {
      throw errors.invalid('parent_id', 'A project cannot be moved under itself or its sub-projects');
    }
    return parent;
  }

  function assign(project: ProjectRecord, fields: ProjectFields): void {
    if (fields.name !== undefined) project.name = checkName(fields.name);
    if (fields.color !== undefined) project.color = fields.color;
    if (fields.description !== undefined) project.description = fields.description;
    if (fields.viewStyle !== undefined) project.viewStyle = fields.viewStyle;
    if (fields.isFavorite !== undefined) project.isFavorite = fields.isFavorite;
    if (fields.isCollapsed !== undefined) project.isCollapsed = fields.isCollapsed;
    if (fields.childOrder !== undefined) project.childOrder = fields.childOrder;
  }

  return {
    find,

    /** The user's projects that are not deleted: the active ones, or the archived ones. */
    list(user: UserRecord, archived: boolean): ProjectRecord[] {
      return store
        .userProjects(user.id)
        .filter((project) => !project.isDeleted && project.isArchived === archived);
    },

    add(user: UserRecord, fields: ProjectFields & { name: string; parentId?: string | null }): ProjectRecord {
      checkColor(fields.color);
      const name = checkName(fields.name);
      const parent = parentFor(user, fields.parentId);
      const childOrder = lastOrder(user.id, parent?.id ?? null);
      const project = store.addProject(user.id, name, clock.stamp());
      Object.assign(project, { parentId: parent?.id ?? null, childOrder });
      assign(project, { ...fields, name });
      webhooks.emit(user, 'project:added', projectWire(project));
      return project;
    },

    update(user: UserRecord, id: string, fields: ProjectFields): ProjectRecord {
      const project = find(user, id);
      checkColor(fields.color);
      assign(project, fields);
      changed(user, project, 'project:updated');
      return project;
    },

    /** Sync `project_move`: under another project, or to the root (`null`); last among its new siblings. */
    move(user: UserRecord, id: string, parentId: string | null): ProjectRecord {
      const project = find(user, id);
      if (project.isInbox) throw errors.inboxProtected('id', 'moved');
      const parent = parentFor(user, parentId, project);
      const newParentId = parent?.id ?? null;
      if (newParentId !== project.parentId) {
        project.childOrder = lastOrder(user.id, newParentId);
        project.parentId = newParentId;
      }
      changed(user, project, 'project:updated');
      return project;
    },

    /**
     * Archives the project and its sub-projects. Their tasks are left as they are: they leave the
     * active lists with their project, and an incremental sync reports the projects, not the tasks.
     */
    archive(user: UserRecord, id: string, argument = 'id'): ProjectRecord {
      const project = find(user, id);
      if (project.isInbox) throw errors.inboxProtected(argument, 'archived');
      for (const target of [project, ...descendants(project)]) {
        if (target.isArchived) continue;
        target.isArchived = true;
        changed(user, target, 'project:archived');
      }
      return project;
    },

    /**
     * Unarchives the project alone (its archived sub-projects stay archived). Under a parent that is
     * still archived, it becomes a root project, last among the others.
     */
    unarchive(user: UserRecord, id: string): ProjectRecord {
      const project = find(user, id);
      if (!project.isArchived) return project;
      const parent = project.parentId === null ? undefined : store.projects.get(project.parentId);
      if (parent && (parent.isArchived || parent.isDeleted)) {
        project.parentId = null;
        project.childOrder = lastOrder(user.id, null);
      }
      project.isArchived = false;
      changed(user, project, 'project:unarchived');
      return project;
    },

    /**
     * Deletes the project, its sub-projects and all their tasks (completed ones too). The tasks are
     * marked deleted, so an incremental sync returns them with `is_deleted: true`; Todoist does not
     * document `item:deleted` webhooks for them, so only the `project:deleted` ones are sent.
     */
    delete(user: UserRecord, id: string, argument = 'id'): void {
      const project = find(user, id);
      if (project.isInbox) throw errors.inboxProtected(argument, 'deleted');
      const doomed = [project, ...descendants(project)];
      const ids = new Set(doomed.map((target) => target.id));
      const stamp = clock.stamp();
      for (const task of store.userTasks(user.id)) {
        if (task.isDeleted || !ids.has(task.projectId)) continue;
        task.isDeleted = true;
        task.updatedAt = stamp;
        store.touch(task);
      }
      for (const target of doomed.reverse()) {
        target.isDeleted = true;
        changed(user, target, 'project:deleted');
      }
    },
  };
}
