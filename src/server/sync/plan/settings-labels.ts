import type { LabelRename } from '#server/domain/settings/label-identity.ts';
import type { FollowedLabels } from '#server/domain/settings/settings.repository.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { TaskSnapshot } from '../task-source.port.ts';

/**
 * The run's settings after the labels it read were followed (a label renamed in Todoist renames the
 * settings that refer to it, see `followLabel`): tasks already carry the new name, so the run must
 * match them by it, or every task of the label would look out of scope and lose its event.
 */
export function withFollowedLabels(settings: SyncSettings, followed: FollowedLabels): SyncSettings {
  const renamed = new Map(followed.timeboxes.map(({ from, to }) => [from, to.label]));
  return {
    ...settings,
    timeboxes: settings.timeboxes.map((timebox) => ({
      ...timebox,
      label: renamed.get(timebox.label) ?? timebox.label,
    })),
    taskDuration: followed.taskDurationLabel
      ? { ...settings.taskDuration, label: followed.taskDurationLabel.label }
      : settings.taskDuration,
  };
}

/**
 * Tasks that still carry a label under the name it had before a rename the settings followed (see
 * `LabelRename`). Todoist renames the label on every task that has it, so such a name was written
 * after the rename, by a write that raced it (a task made from an event with the label's old name,
 * say). Left so, the task would look out of scope and lose its event: the run matches it by the new
 * name (through every later rename: A → B then B → C makes A a C), and `relabelled` (task id →
 * labels) is what to write back to Todoist.
 */
export function withRenamedTaskLabels(
  tasks: readonly TaskSnapshot[],
  renames: readonly LabelRename[],
): { tasks: TaskSnapshot[]; relabelled: Map<string, string[]> } {
  const relabelled = new Map<string, string[]>();
  if (renames.length === 0) return { tasks: [...tasks], relabelled };
  const renamed = (label: string) =>
    renames.find((rename) => rename.from.toLowerCase() === label.toLowerCase())?.to;
  const newName = (label: string) => {
    let name = renamed(label);
    // Bounded: a cycle of renames (A → B, B → A) stops after one lap.
    for (let step = 0; name !== undefined && step < renames.length; step += 1) {
      const next = renamed(name);
      if (next === undefined) break;
      name = next;
    }
    return name;
  };
  const result = tasks.map((task) => {
    if (!task.labels.some((label) => newName(label) !== undefined)) return task;
    const labels = [...new Set(task.labels.map((label) => newName(label) ?? label))];
    relabelled.set(task.id, labels);
    return { ...task, labels };
  });
  return { tasks: result, relabelled };
}
