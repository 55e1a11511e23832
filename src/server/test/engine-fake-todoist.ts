import type { Clock } from '#server/domain/shared/clock.port.ts';
import { blankTask } from '#server/sync/plan/snapshots.ts';
import type {
  DueWrite,
  LabelSnapshot,
  ProjectSnapshot,
  TaskCommand,
  TaskCommandResult,
  TaskDue,
  TaskSnapshot,
  TaskSource,
} from '#server/sync/task-source.port.ts';
import { faults, withFault } from './engine-fake-faults.ts';

/**
 * Todoist faked for the sync engine's unit tests, with the promises of the TaskSource port
 * (incremental reads by sync token, idempotent commands), the user's own edits, and faults to inject.
 */

/** A floating due at `local` (YYYY-MM-DDTHH:MM:SS), as Todoist reads it. */
export const floatingDue = (local: string): TaskDue => ({
  date: local,
  timezone: null,
  isRecurring: false,
  string: '',
});

const dueOf = (write: DueWrite): TaskDue => {
  const recurrence = { isRecurring: write.string !== undefined, string: write.string ?? '' };
  if (write.kind === 'floating') return { date: write.local, timezone: null, ...recurrence };
  if (write.kind === 'fixed') return { date: write.utc, timezone: write.timezone, ...recurrence };
  return { date: write.date, timezone: null, ...recurrence };
};

type StoredTask = TaskSnapshot & { changedAt: number };
type TodoistMethod = 'changes' | 'task' | 'openTasks' | 'apply';

export type FakeTodoist = ReturnType<typeof fakeTodoist>;

/**
 * Todoist in memory. A full read (no token) lists the open tasks; an incremental one every task changed
 * since the token, deleted and completed ones too. Commands are applied once per uuid: a repeated
 * `add` answers with the task the first made.
 */
export function fakeTodoist(clock: Clock, options: { timeZone?: string | null } = {}) {
  const tasks = new Map<string, StoredTask>();
  const labels: LabelSnapshot[] = [];
  const projects = new Map<string, ProjectSnapshot & { changedAt: number }>([
    [
      'inbox',
      {
        id: 'inbox',
        name: 'Inbox',
        color: 'grey',
        parentId: null,
        inbox: true,
        order: 0,
        isArchived: false,
        isDeleted: false,
        changedAt: 0,
      },
    ],
  ]);
  // Todoist's full read leaves out archived projects and their tasks; an incremental one names the
  // projects that changed, not their tasks.
  const inArchivedProject = (task: TaskSnapshot) =>
    task.projectId !== null && projects.get(task.projectId)?.isArchived === true;
  const applied = new Map<string, TaskCommandResult>();
  /** Every command received, repeats included. */
  const commands: TaskCommand[] = [];
  const calls: { method: TodoistMethod; syncToken?: string | null }[] = [];
  const injected = faults<TodoistMethod>();
  const refusing = new Map<string, { tag: string; httpCode: number }>();
  let seq = 0;
  let ids = 0;
  const touch = (task: StoredTask) => {
    seq += 1;
    task.changedAt = seq;
    task.updatedAt = clock().toISOString();
  };
  const snapshot = ({ changedAt: _changed, ...task }: StoredTask): TaskSnapshot => structuredClone(task);

  function applyOne(command: TaskCommand, result: TaskCommandResult) {
    if (command.kind === 'add') {
      ids += 1;
      const task: StoredTask = {
        id: `task-${ids}`,
        content: command.content,
        description: '',
        labels: [...command.labels],
        projectId: command.projectId ?? null,
        priority: 1,
        order: ids,
        due: dueOf(command.due),
        duration: command.duration,
        checked: false,
        completedAt: null,
        isDeleted: false,
        updatedAt: null,
        changedAt: 0,
      };
      touch(task);
      tasks.set(task.id, task);
      result.idsByTempId[command.tempId] = task.id;
      return;
    }
    const task = tasks.get(command.id);
    if (!task || task.isDeleted) {
      result.failed[command.uuid] = 'ITEM_NOT_FOUND';
      return;
    }
    const refusal = refusing.get(command.id);
    if (refusal) {
      result.failed[command.uuid] = refusal.tag;
      result.failedStatus = { ...result.failedStatus, [command.uuid]: refusal.httpCode };
      return;
    }
    if (command.kind === 'delete') task.isDeleted = true;
    else {
      if (command.content !== undefined) task.content = command.content;
      if (command.due !== undefined) task.due = command.due === null ? null : dueOf(command.due);
      if (command.labels !== undefined) task.labels = [...command.labels];
      if (command.duration !== undefined) task.duration = command.duration;
    }
    touch(task);
  }

  const source: TaskSource = {
    async changes(_token, syncToken) {
      calls.push({ method: 'changes', syncToken });
      return withFault(injected.take('changes'), () => {
        const full = syncToken === null;
        const since = full ? 0 : Number(syncToken);
        const read = [...tasks.values()].filter((task) =>
          full ? !task.isDeleted && !task.checked && !inArchivedProject(task) : task.changedAt > since,
        );
        const projectsRead = [...projects.values()].filter((project) =>
          full ? !project.isArchived && !project.isDeleted : project.changedAt > since,
        );
        return {
          tasks: read.map(snapshot),
          labels: full ? labels.map((label) => ({ ...label })) : [],
          projects: projectsRead.map(({ changedAt: _changed, ...project }) => ({ ...project })),
          full,
          nextToken: String(seq),
          timeZone: options.timeZone ?? null,
        };
      });
    },
    async task(_token, id) {
      calls.push({ method: 'task' });
      return withFault(injected.take('task'), () => {
        const task = tasks.get(id);
        return task && !task.isDeleted ? snapshot(task) : null;
      });
    },
    async openTasks(_token, wanted) {
      calls.push({ method: 'openTasks' });
      return withFault(injected.take('openTasks'), () =>
        wanted.flatMap((id) => {
          const task = tasks.get(id);
          return task && !task.isDeleted && !task.checked ? [snapshot(task)] : [];
        }),
      );
    },
    async apply(_token, batch) {
      calls.push({ method: 'apply' });
      commands.push(...structuredClone(batch));
      return withFault(injected.take('apply'), () => {
        const result: TaskCommandResult = { idsByTempId: {}, failed: {} };
        for (const command of batch) {
          const earlier = applied.get(command.uuid);
          if (earlier) {
            Object.assign(result.idsByTempId, earlier.idsByTempId);
            Object.assign(result.failed, earlier.failed);
            continue;
          }
          const own: TaskCommandResult = { idsByTempId: {}, failed: {} };
          applyOne(command, own);
          applied.set(command.uuid, own);
          Object.assign(result.idsByTempId, own.idsByTempId);
          Object.assign(result.failed, own.failed);
          if (own.failedStatus) result.failedStatus = { ...result.failedStatus, ...own.failedStatus };
        }
        return result;
      });
    },
  };

  return {
    ...source,
    tasks,
    labels,
    commands,
    calls,
    fail: injected.add,
    /** Todoist refuses every command on this task (a Sync API command error), until `refuse(id, null)`. */
    refuse(id: string, refusal: { tag: string; httpCode: number } | null) {
      if (refusal) refusing.set(id, refusal);
      else refusing.delete(id);
    },
    /** The user adds a task. */
    add(task: Pick<TaskSnapshot, 'content'> & Partial<TaskSnapshot>): TaskSnapshot {
      ids += 1;
      const stored: StoredTask = { ...blankTask(`task-${ids}`, task), changedAt: 0 };
      touch(stored);
      tasks.set(stored.id, stored);
      return snapshot(stored);
    },
    /** The user edits a task. */
    edit(id: string, patch: Partial<Omit<TaskSnapshot, 'id'>>) {
      const task = tasks.get(id);
      if (!task) throw new Error(`no task ${id}`);
      Object.assign(task, patch);
      touch(task);
    },
    /** The user deletes a task. */
    remove(id: string) {
      const task = tasks.get(id);
      if (!task) throw new Error(`no task ${id}`);
      task.isDeleted = true;
      touch(task);
    },
    projects,
    /** The user adds a project (under `parentId`), or changes one (archives it, say). */
    project(id: string, fields: Partial<Omit<ProjectSnapshot, 'id'>> = {}) {
      seq += 1;
      const known = projects.get(id);
      const base = known ?? {
        id,
        name: id,
        color: 'grey',
        parentId: null,
        inbox: false,
        order: projects.size,
      };
      projects.set(id, { isArchived: false, isDeleted: false, ...base, ...fields, changedAt: seq });
    },
    /** The tasks that exist (not deleted). */
    live: () => [...tasks.values()].filter((task) => !task.isDeleted).map(snapshot),
  };
}
