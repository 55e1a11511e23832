import type { FollowedLabels } from '#server/domain/settings/settings.repository.ts';
import type { SyncSettings } from './sync-settings.ts';

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
