import { z } from 'zod';
import { requireScope, type Session } from './todoist.auth.ts';
import { dueContext, type TodoistContext } from './todoist.context.ts';
import { buildDue } from './todoist.due.ts';
import { errors, TodoistError } from './todoist.errors.ts';
import type { LabelOperations } from './todoist.label-operations.ts';
import { projectCommands } from './todoist.project-commands.ts';
import type { ProjectOperations } from './todoist.project-operations.ts';
import {
  byId,
  itemAdd,
  itemComplete,
  itemCompleteUndo,
  itemMove,
  itemUpdate,
  itemUpdateDateComplete,
  labelAdd,
  type labelArgs,
  labelDelete,
  labelRename,
  labelUpdate,
  type taskArgs,
} from './todoist.sync-args.ts';
import { command, type Handler } from './todoist.sync-handler.ts';
import type { TaskFields, TaskOperations } from './todoist.task-operations.ts';

const commandSchema = z.object({
  type: z.string().min(1),
  uuid: z.string().min(1),
  temp_id: z.string().min(1).optional(),
  args: z.record(z.string(), z.unknown()).default({}),
});
export const commandsSchema = z.array(commandSchema);
export type SyncCommand = z.infer<typeof commandSchema>;

/** The operations Sync commands run: the same ones the REST endpoints use. */
export type SyncOperations = {
  tasks: TaskOperations;
  labels: LabelOperations;
  projects: ProjectOperations;
};

/** Runs Sync commands in order. A uuid seen before is answered from memory and not applied twice. */
export function runCommands(
  context: TodoistContext,
  session: Session,
  ops: SyncOperations,
  commands: SyncCommand[],
) {
  const { store } = context;
  const { user } = session;
  const syncStatus: Record<string, unknown> = {};
  const tempIdMapping: Record<string, string> = {};

  const taskFields = (args: z.infer<typeof taskArgs>): TaskFields => ({
    content: args.content,
    description: args.description,
    projectId: args.project_id,
    sectionId: args.section_id,
    parentId: args.parent_id,
    due:
      args.due === undefined
        ? undefined
        : args.due === null
          ? null
          : buildDue(args.due, dueContext(context, user), 'due'),
    deadline:
      args.deadline === undefined || args.deadline === null
        ? args.deadline
        : { date: args.deadline.date, lang: args.deadline.lang ?? 'en' },
    duration: args.duration,
    priority: args.priority,
    childOrder: args.child_order,
    dayOrder: args.day_order,
    isCollapsed: args.is_collapsed,
    labels: args.labels,
    responsibleUid: args.responsible_uid,
  });

  const labelFields = (args: z.infer<typeof labelArgs>) => ({
    name: args.name,
    color: args.color,
    order: args.item_order,
    isFavorite: args.is_favorite,
  });

  const handlers: Record<string, Handler> = {
    item_add: command('add', itemAdd, (args) => ops.tasks.add(user, taskFields(args)).id),
    item_update: command('write', itemUpdate, (args) => {
      ops.tasks.update(user, args.id, taskFields(args));
    }),
    item_close: command('write', byId, (args) => {
      ops.tasks.close(user, args.id);
    }),
    item_complete: command('write', itemComplete, (args) => {
      ops.tasks.complete(user, args.id, args.completed_at ?? args.date_completed);
    }),
    item_uncomplete: command('write', byId, (args) => {
      ops.tasks.reopen(user, args.id);
    }),
    item_update_date_complete: command('write', itemUpdateDateComplete, (args) => {
      const ctx = dueContext(context, user);
      ops.tasks.updateDateComplete(
        user,
        args.id,
        // A due without a string keeps the task's own (recurring) string and zone.
        (current) =>
          buildDue(
            {
              ...args.due,
              string: args.due.string ?? current?.string,
              timezone: args.due.timezone === undefined ? current?.timezone : args.due.timezone,
            },
            ctx,
            'due',
          ),
        { isForward: args.is_forward, resetSubtasks: args.reset_subtasks },
      );
    }),
    item_complete_undo: command('write', itemCompleteUndo, (args) => {
      ops.tasks.completeUndo(user, args.id, args.descendants);
    }),
    item_move: command('write', itemMove, (args) => {
      ops.tasks.move(user, args.id, {
        projectId: args.project_id,
        sectionId: args.section_id,
        parentId: args.parent_id,
      });
    }),
    item_delete: command('delete', byId, (args) => {
      ops.tasks.delete(user, args.id);
    }),
    label_add: command(
      'write',
      labelAdd,
      (args) => ops.labels.add(user, { ...labelFields(args), name: args.name }).id,
    ),
    label_update: command('write', labelUpdate, (args) => {
      ops.labels.update(user, args.id, labelFields(args));
    }),
    label_rename: command('write', labelRename, (args) => {
      ops.labels.rename(user, args.name_old, args.name_new);
    }),
    label_delete: command('delete', labelDelete, (args) => {
      ops.labels.delete(user, args.id, args.cascade);
    }),
    ...projectCommands(ops.projects, user),
  };

  for (const command of commands) {
    const remembered = store.commandResult(user.id, command.uuid);
    if (remembered) {
      syncStatus[command.uuid] = remembered.status;
      if (remembered.tempId && remembered.realId) tempIdMapping[remembered.tempId] = remembered.realId;
      continue;
    }
    try {
      const handler = handlers[command.type];
      if (!handler) throw errors.invalid('type', `Unknown command type: ${command.type}`);
      requireScope(session, handler.need);
      const refused = context.commandFaults.refusal(command.type, session.bearer);
      if (refused) throw refused;
      const realId = handler.run(command.args);
      if (command.temp_id && realId) tempIdMapping[command.temp_id] = realId;
      store.rememberCommand(user.id, command.uuid, { status: 'ok', tempId: command.temp_id, realId });
      syncStatus[command.uuid] = 'ok';
    } catch (error) {
      if (!(error instanceof TodoistError)) throw error;
      syncStatus[command.uuid] = error.body;
    }
  }
  return { syncStatus, tempIdMapping };
}
