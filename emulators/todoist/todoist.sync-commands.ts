import { z } from 'zod';
import { type Need, requireScope, type Session } from './todoist.auth.ts';
import { dueContext, type TodoistContext } from './todoist.context.ts';
import { buildDue } from './todoist.due.ts';
import { errors, TodoistError } from './todoist.errors.ts';
import type { LabelOperations } from './todoist.label-operations.ts';
import {
  byId,
  itemAdd,
  itemComplete,
  itemCompleteUndo,
  itemMove,
  itemUpdate,
  itemUpdateDateComplete,
  labelAdd,
  labelDelete,
  labelRename,
  labelUpdate,
  type taskArgs,
} from './todoist.sync-args.ts';
import type { TaskFields, TaskOperations } from './todoist.task-operations.ts';
import { parseWith } from './todoist.validation.ts';

const commandSchema = z.object({
  type: z.string().min(1),
  uuid: z.string().min(1),
  temp_id: z.string().min(1).optional(),
  args: z.record(z.string(), z.unknown()).default({}),
});
export const commandsSchema = z.array(commandSchema);
export type SyncCommand = z.infer<typeof commandSchema>;

/** Runs Sync commands in order. A uuid seen before is answered from memory and not applied twice. */
export function runCommands(
  context: TodoistContext,
  session: Session,
  ops: { tasks: TaskOperations; labels: LabelOperations },
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

  const handlers: Record<string, { need: Need; run: (args: unknown) => string | undefined }> = {
    item_add: {
      need: 'add',
      run: (args) => ops.tasks.add(user, taskFields(parseWith(itemAdd, args))).id,
    },
    item_update: {
      need: 'write',
      run: (args) => {
        const parsed = parseWith(itemUpdate, args);
        ops.tasks.update(user, parsed.id, taskFields(parsed));
        return undefined;
      },
    },
    item_close: {
      need: 'write',
      run: (args) => {
        ops.tasks.close(user, parseWith(byId, args).id);
        return undefined;
      },
    },
    item_complete: {
      need: 'write',
      run: (args) => {
        const parsed = parseWith(itemComplete, args);
        ops.tasks.complete(user, parsed.id, parsed.completed_at ?? parsed.date_completed);
        return undefined;
      },
    },
    item_uncomplete: {
      need: 'write',
      run: (args) => {
        ops.tasks.reopen(user, parseWith(byId, args).id);
        return undefined;
      },
    },
    item_update_date_complete: {
      need: 'write',
      run: (args) => {
        const parsed = parseWith(itemUpdateDateComplete, args);
        const ctx = dueContext(context, user);
        ops.tasks.updateDateComplete(
          user,
          parsed.id,
          // A due without a string keeps the task's own (recurring) string and zone.
          (current) =>
            buildDue(
              {
                ...parsed.due,
                string: parsed.due.string ?? current?.string,
                timezone: parsed.due.timezone === undefined ? current?.timezone : parsed.due.timezone,
              },
              ctx,
              'due',
            ),
          { isForward: parsed.is_forward, resetSubtasks: parsed.reset_subtasks },
        );
        return undefined;
      },
    },
    item_complete_undo: {
      need: 'write',
      run: (args) => {
        const parsed = parseWith(itemCompleteUndo, args);
        ops.tasks.completeUndo(user, parsed.id, parsed.descendants);
        return undefined;
      },
    },
    item_move: {
      need: 'write',
      run: (args) => {
        const parsed = parseWith(itemMove, args);
        ops.tasks.move(user, parsed.id, {
          projectId: parsed.project_id,
          sectionId: parsed.section_id,
          parentId: parsed.parent_id,
        });
        return undefined;
      },
    },
    item_delete: {
      need: 'delete',
      run: (args) => {
        ops.tasks.delete(user, parseWith(byId, args).id);
        return undefined;
      },
    },
    label_add: {
      need: 'write',
      run: (args) => {
        const parsed = parseWith(labelAdd, args);
        const label = ops.labels.add(user, {
          name: parsed.name,
          color: parsed.color,
          order: parsed.item_order,
          isFavorite: parsed.is_favorite,
        });
        return label.id;
      },
    },
    label_update: {
      need: 'write',
      run: (args) => {
        const parsed = parseWith(labelUpdate, args);
        ops.labels.update(user, parsed.id, {
          name: parsed.name,
          color: parsed.color,
          order: parsed.item_order,
          isFavorite: parsed.is_favorite,
        });
        return undefined;
      },
    },
    label_rename: {
      need: 'write',
      run: (args) => {
        const parsed = parseWith(labelRename, args);
        ops.labels.rename(user, parsed.name_old, parsed.name_new);
        return undefined;
      },
    },
    label_delete: {
      need: 'delete',
      run: (args) => {
        const parsed = parseWith(labelDelete, args);
        ops.labels.delete(user, parsed.id, parsed.cascade);
        return undefined;
      },
    },
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
