import { LABEL_COLORS } from '#shared/settings/constants.ts';
import type { TodoistContext } from './todoist.context.ts';
import { errors, TodoistError } from './todoist.errors.ts';
import { syncLabelWire } from './todoist.mappers.ts';
import type { LabelRecord, UserRecord } from './todoist.records.ts';
import type { TaskOperations } from './todoist.task-operations.ts';

export type LabelFields = { name?: string; color?: string; order?: number | null; isFavorite?: boolean };

export type LabelOperations = ReturnType<typeof createLabelOperations>;

/** Personal labels: names are unique per user (case-insensitively); tasks refer to them by name. */
export function createLabelOperations(context: TodoistContext, tasks: TaskOperations) {
  const { store, webhooks } = context;

  function find(user: UserRecord, id: string): LabelRecord {
    const label = store.labels.get(store.resolveId(user.id, id));
    if (!label || label.userId !== user.id || label.isDeleted) throw errors.labelNotFound();
    return label;
  }

  function checkName(user: UserRecord, name: string, except?: LabelRecord): string {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 128) throw errors.invalid('name', 'Label names are 1 to 128 characters');
    const clash = store
      .userLabels(user.id)
      .find(
        (label) => !label.isDeleted && label !== except && label.name.toLowerCase() === trimmed.toLowerCase(),
      );
    if (clash) {
      throw new TodoistError(400, 'LABEL_ALREADY_EXISTS', 20, 'Label already exists', {
        argument: 'name',
        explanation: `A label named "${clash.name}" already exists`,
      });
    }
    return trimmed;
  }

  function checkColor(color: string | undefined): void {
    if (color !== undefined && !(LABEL_COLORS as readonly string[]).includes(color))
      throw errors.invalid('color');
  }

  function update(user: UserRecord, id: string, fields: LabelFields): LabelRecord {
    const label = find(user, id);
    checkColor(fields.color);
    const oldName = label.name;
    if (fields.name !== undefined) label.name = checkName(user, fields.name, label);
    if (fields.color !== undefined) label.color = fields.color;
    if (fields.order !== undefined && fields.order !== null) label.order = fields.order;
    if (fields.isFavorite !== undefined) label.isFavorite = fields.isFavorite;
    store.touch(label);
    if (label.name !== oldName) tasks.replaceLabel(user, oldName, label.name);
    webhooks.emit(user, 'label:updated', syncLabelWire(label));
    return label;
  }

  return {
    find,
    update,

    /**
     * Sync `label_rename` (`name_old` → `name_new`): renames the personal label of that name, if any,
     * and the name on every task, so shared labels (names without a label) are renamed too.
     */
    rename(user: UserRecord, oldName: string, newName: string): void {
      const label = store
        .userLabels(user.id)
        .find((candidate) => !candidate.isDeleted && candidate.name === oldName);
      if (label) {
        update(user, label.id, { name: newName });
        return;
      }
      const trimmed = newName.trim();
      if (!trimmed || trimmed.length > 128)
        throw errors.invalid('name_new', 'Label names are 1 to 128 characters');
      tasks.replaceLabel(user, oldName, trimmed);
    },

    add(user: UserRecord, fields: LabelFields & { name: string }): LabelRecord {
      checkColor(fields.color);
      const existing = store.userLabels(user.id).filter((label) => !label.isDeleted);
      const label: LabelRecord = {
        id: store.newId(),
        userId: user.id,
        name: checkName(user, fields.name),
        color: fields.color ?? 'charcoal',
        order: fields.order ?? Math.max(0, ...existing.map((l) => l.order)) + 1,
        isFavorite: fields.isFavorite ?? false,
        isDeleted: false,
        seq: 0,
      };
      store.touch(label);
      store.labels.add(label);
      webhooks.emit(user, 'label:added', syncLabelWire(label));
      return label;
    },

    /** `cascade: 'all'` (the default) also removes the name from tasks; `none` leaves it as a shared label. */
    delete(user: UserRecord, id: string, cascade: 'all' | 'none' = 'all'): void {
      const label = find(user, id);
      label.isDeleted = true;
      store.touch(label);
      if (cascade === 'all') tasks.replaceLabel(user, label.name, undefined);
      webhooks.emit(user, 'label:deleted', syncLabelWire(label));
    },
  };
}
