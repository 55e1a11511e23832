import type { TodoistLabel } from '#shared/api/current-user.schema.ts';
import { type LabelColor, NEW_LABEL_COLOR_CODE } from '#shared/settings/constants.ts';
import { labelColorKey } from '#shared/settings/label-colors.ts';
import { sortLabels, type TimeboxSetting } from '#shared/settings/rules.ts';
import { durationError, labelError } from '#shared/settings/settings.schema.ts';
import { toLabelColor } from '../../lib/todoist-colors.ts';

export type TimeboxValues = { label: string; duration: string };
export type TimeboxErrors = { label?: string; duration?: string };

/** The colour a label gets on Todoist unless the person picks another (docs/product-rules.md §9: code 38). */
export const DEFAULT_NEW_LABEL_COLOR: LabelColor = labelColorKey(NEW_LABEL_COLOR_CODE);

/** The labels of the other settings: a label may not be used twice, but an edit may keep its own. */
export function otherTimeboxLabels(settings: readonly TimeboxSetting[], editing?: string): string[] {
  return settings.filter((setting) => setting.label !== editing).map((setting) => setting.label);
}

/**
 * The checks of docs/product-rules.md §5, in the order of a save: the duration first, and only then the
 * label.
 */
export function validateTimebox(values: TimeboxValues, otherLabels: readonly string[]): TimeboxErrors {
  const duration = durationError(values.duration);
  if (duration) return { duration };
  const label = labelError(values.label, otherLabels);
  return label ? { label } : {};
}

export function hasErrors(errors: TimeboxErrors): boolean {
  return !!(errors.label || errors.duration);
}

/** The Todoist label of that name: exactly, or else ignoring case as Todoist does. */
export function findTodoistLabel(labels: readonly TodoistLabel[], name: string): TodoistLabel | undefined {
  const wanted = name.trim();
  return (
    labels.find((label) => label.name === wanted) ??
    labels.find((label) => label.name.toLowerCase() === wanted.toLowerCase())
  );
}

export type LabelChoice = { value: string; missing: boolean };

/**
 * The label dropdown: the Todoist labels in their Todoist order, and first a warning option for the
 * edited setting's label when Todoist does not have it (docs/product-rules.md §2).
 */
export function labelChoices(labels: readonly TodoistLabel[], editedLabel?: string): LabelChoice[] {
  const choices = sortLabels(labels).map((label) => ({ value: label.name, missing: false }));
  if (editedLabel && !findTodoistLabel(labels, editedLabel)) {
    return [{ value: editedLabel, missing: true }, ...choices];
  }
  return choices;
}

export type SaveStep =
  | { kind: 'createLabel'; label: string; color: LabelColor }
  | { kind: 'updateLabelColor'; labelId: string; color: LabelColor }
  | { kind: 'add'; label: string; duration: number }
  | { kind: 'edit'; label: string; newLabel: string; duration: number };

type SavePlanInput = {
  /** The label of the setting being edited; absent when adding. */
  originalLabel?: string;
  values: TimeboxValues;
  color: LabelColor;
  todoistLabels: readonly TodoistLabel[];
  todoistConnected: boolean;
};

/**
 * The calls a valid save makes, in order (docs/product-rules.md §4, §7): a label Todoist does not have is
 * created there first; a label it has gets its colour updated when the person changed it; then the setting
 * itself.
 */
export function planTimeboxSave({
  originalLabel,
  values,
  color,
  todoistLabels,
  todoistConnected,
}: SavePlanInput): SaveStep[] {
  const label = values.label.trim();
  const duration = Number(values.duration.trim());
  const steps: SaveStep[] = [];
  if (todoistConnected) {
    const existing = findTodoistLabel(todoistLabels, label);
    if (!existing) steps.push({ kind: 'createLabel', label, color });
    else if (toLabelColor(existing.color) !== color) {
      steps.push({ kind: 'updateLabelColor', labelId: existing.id, color });
    }
  }
  steps.push(
    originalLabel === undefined
      ? { kind: 'add', label, duration }
      : { kind: 'edit', label: originalLabel, newLabel: label, duration },
  );
  return steps;
}

/** The colour the picker shows for a label: its Todoist colour, or the new-label default. */
export function initialLabelColor(labels: readonly TodoistLabel[], name: string): LabelColor {
  return toLabelColor(findTodoistLabel(labels, name)?.color) ?? DEFAULT_NEW_LABEL_COLOR;
}

/**
 * What the label dropdown lists for what is typed: everything while the field is empty or holds one
 * of the choices (so a person can switch to another), else the choices containing the text.
 */
export function filterLabelChoices(values: readonly string[], search: string): string[] {
  const wanted = search.trim().toLowerCase();
  if (!wanted || values.some((value) => value.toLowerCase() === wanted)) return [...values];
  return values.filter((value) => value.toLowerCase().includes(wanted));
}

/** Where the server's 400 puts a message: next to the label or the duration, or above the form. */
export function fieldOfIssue(field: string): keyof TimeboxErrors | null {
  if (field === 'label' || field === 'newLabel') return 'label';
  if (field === 'duration') return 'duration';
  return null;
}
