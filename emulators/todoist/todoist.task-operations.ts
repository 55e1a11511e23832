import type { TodoistContext } from './todoist.context.ts';
import { dueContext } from './todoist.context.ts';
import { nextOccurrence } from './todoist.due.ts';
import { errors } from './todoist.errors.ts';
import { webhookTaskWire } from './todoist.mappers.ts';
import type { Duration, TaskRecord, UserRecord } from './todoist.records.ts';

export type TaskFields = Partial<
  Pick<
    TaskRecord,
    | 'content'
    | 'description'
    | 'labels'
    | 'priority'
    | 'due'
    | 'deadline'
    | 'childOrder'
    | 'dayOrder'
    | 'isCollapsed'
    | 'projectId'
    | 'sectionId'
    | 'parentId'
    | 'responsibleUid'
  >
> & { duration?: Duration | null };

export type TaskOperations = ReturnType<typeof createTaskOperations>;

/** Task writes shared by the REST endpoints and Sync commands; each one fires the matching webhook. */
export function createTaskOperations(context: TodoistContext) {
  const { store, clock, webhooks } = context;

  function find(user: UserRecord, id: string): TaskRecord {
    const task = store.tasks.get(store.resolveId(user.id, id));
    if (!task || task.userId !== user.id || task.isDeleted) throw errors.taskNotFound();
    return task;
  }

  function changed(task: TaskRecord): void {
    task.updatedAt = clock.stamp();
    store.touch(task);
  }

  function descendants(task: TaskRecord): TaskRecord[] {
    const children = store.userTasks(task.userId).filter((t) => t.parentId === task.id && !t.isDeleted);
    return children.flatMap((child) => [child, ...descendants(child)]);
  }

  function checkProject(user: UserRecord, projectId: string | undefined): void {
    if (projectId === undefined) return;
    const project = store.projects.get(store.resolveId(user.id, projectId));
    if (!project || project.userId !== user.id || project.isDeleted) throw errors.projectNotFound();
  }

  /** Checks or unchecks one task (no cascade), with its webhook; no-op when already so. */
  function setChecked(user: UserRecord, task: TaskRecord, checked: boolean): void {
    if (task.checked === checked) return;
    task.checked = checked;
    task.completedAt = checked ? clock.stamp() : null;
    changed(task);
    webhooks.emit(user, checked ? 'item:completed' : 'item:uncompleted', webhookTaskWire(task, context.wire));
  }

  function updated(user: UserRecord, task: TaskRecord, before: object, intent: string): void {
    changed(task);
    webhooks.emit(user, 'item:updated', webhookTaskWire(task, context.wire), {
      old_item: before,
      update_intent: intent,
    });
  }

  function complete(user: UserRecord, task: TaskRecord, completedAt?: string): void {
    for (const target of [task, ...descendants(task)]) {
      if (target.checked) continue;
      target.checked = true;
      target.completedAt = completedAt ?? clock.stamp();
      changed(target);
      webhooks.emit(user, 'item:completed', webhookTaskWire(target, context.wire));
    }
  }

  return {
    find,

    add(user: UserRecord, fields: TaskFields): TaskRecord {
      checkProject(user, fields.projectId);
      const parent = fields.parentId ? find(user, fields.parentId) : undefined;
      const stamp = clock.stamp();
      const siblings = store.userTasks(user.id);
      const task: TaskRecord = {
        id: store.newId(),
        userId: user.id,
        projectId: parent?.projectId ?? store.resolveId(user.id, fields.projectId ?? user.inboxProjectId),
        sectionId: fields.sectionId ?? parent?.sectionId ?? null,
        parentId: parent?.id ?? null,
        content: fields.content ?? '',
        description: fields.description ?? '',
        labels: [...new Set(fields.labels ?? [])],
        priority: fields.priority ?? 1,
        due: fields.due ?? null,
        duration: fields.duration ?? null,
        deadline: fields.deadline ?? null,
        checked: false,
        isDeleted: false,
        isCollapsed: fields.isCollapsed ?? false,
        childOrder: fields.childOrder ?? Math.max(0, ...siblings.map((t) => t.childOrder)) + 1,
        dayOrder: fields.dayOrder ?? -1,
        addedAt: stamp,
        updatedAt: stamp,
        completedAt: null,
        addedByUid: user.id,
        assignedByUid: null,
        responsibleUid: fields.responsibleUid ?? null,
        seq: 0,
      };
      store.touch(task);
      store.tasks.add(task);
      webhooks.emit(user, 'item:added', webhookTaskWire(task, context.wire));
      return task;
    },

    update(user: UserRecord, id: string, fields: TaskFields): TaskRecord {
      const task = find(user, id);
      const before = webhookTaskWire(task, context.wire);
      const { projectId: _project, sectionId: _section, parentId: _parent, ...editable } = fields;
      for (const [key, value] of Object.entries(editable)) {
        if (value !== undefined)
          Object.assign(task, { [key]: key === 'labels' ? [...new Set(value as string[])] : value });
      }
      updated(user, task, before, 'item_updated');
      return task;
    },

    /** REST close / Sync `item_close`: a recurring task moves to its next occurrence instead. */
    close(user: UserRecord, id: string): TaskRecord {
      const task = find(user, id);
      if (task.due?.is_recurring && !task.checked) {
        const before = webhookTaskWire(task, context.wire);
        task.due = nextOccurrence(task.due, dueContext(context, user));
        updated(user, task, before, 'item_completed');
        return task;
      }
      complete(user, task);
      return task;
    },

    /** Sync `item_complete`: completes even a recurring task for good. */
    complete(user: UserRecord, id: string, completedAt?: string): TaskRecord {
      const task = find(user, id);
      complete(user, task, completedAt);
      return task;
    },

    reopen(user: UserRecord, id: string): TaskRecord {
      const task = find(user, id);
      setChecked(user, task, false);
      return task;
    },

    /**
     * Sync `item_update_date_complete`: one occurrence of a recurring task is done (`isForward`) or
     * undone, and the task moves to the due the client computed. `resetSubtasks` unchecks subtasks.
     */
    updateDateComplete(
      user: UserRecord,
      id: string,
      due: (current: TaskRecord['due']) => TaskRecord['due'],
      options: { isForward: boolean; resetSubtasks: boolean },
    ): TaskRecord {
      const task = find(user, id);
      const before = webhookTaskWire(task, context.wire);
      task.due = due(task.due);
      if (options.resetSubtasks) for (const child of descendants(task)) setChecked(user, child, false);
      updated(user, task, before, options.isForward ? 'item_completed' : 'item_uncompleted');
      return task;
    },

    /**
     * Sync `item_complete_undo`: reopens a completed task and puts its subtasks back as the client
     * says they were (`descendants`, unchecked unless `checked: true`). The emulator keeps no history,
     * so a recurring task's earlier due date is not restored.
     */
    completeUndo(user: UserRecord, id: string, states: { id: string; checked?: boolean }[]): TaskRecord {
      const task = find(user, id);
      setChecked(user, task, false);
      const children = descendants(task);
      for (const state of states) {
        const child = children.find((candidate) => candidate.id === store.resolveId(user.id, state.id));
        if (child) setChecked(user, child, state.checked ?? false);
      }
      return task;
    },

    /** Sync `item_move`: to a project (top level), a section, or under another task (null: top level). */
    move(
      user: UserRecord,
      id: string,
      target: { projectId?: string; sectionId?: string | null; parentId?: string | null },
    ): TaskRecord {
      const task = find(user, id);
      const before = webhookTaskWire(task, context.wire);
      if (target.parentId !== undefined) {
        const parent = target.parentId === null ? undefined : find(user, target.parentId);
        if (parent && (parent === task || descendants(task).includes(parent))) {
          throw errors.invalid('parent_id', 'A task cannot be moved under itself or its subtasks');
        }
        task.parentId = parent?.id ?? null;
        if (parent) Object.assign(task, { projectId: parent.projectId, sectionId: parent.sectionId });
      } else if (target.sectionId !== undefined) {
        Object.assign(task, { sectionId: target.sectionId, parentId: null });
      } else if (target.projectId !== undefined) {
        checkProject(user, target.projectId);
        const projectId = store.resolveId(user.id, target.projectId);
        Object.assign(task, { projectId, sectionId: null, parentId: null });
      }
      for (const child of descendants(task)) {
        Object.assign(child, { projectId: task.projectId, sectionId: task.sectionId });
        changed(child);
      }
      updated(user, task, before, 'item_updated');
      return task;
    },

    delete(user: UserRecord, id: string): void {
      const task = find(user, id);
      for (const target of [...descendants(task).reverse(), task]) {
        target.isDeleted = true;
        changed(target);
        webhooks.emit(user, 'item:deleted', webhookTaskWire(target, context.wire));
      }
    },

    /** Rewrites a label name on the user's tasks (label renamed or deleted); no webhooks, like a bulk edit. */
    replaceLabel(user: UserRecord, oldName: string, newName: string | undefined): void {
      for (const task of store.userTasks(user.id)) {
        if (task.isDeleted || !task.labels.includes(oldName)) continue;
        task.labels =
          newName === undefined
            ? task.labels.filter((name) => name !== oldName)
            : [...new Set(task.labels.map((name) => (name === oldName ? newName : name)))];
        changed(task);
      }
    },
  };
}
