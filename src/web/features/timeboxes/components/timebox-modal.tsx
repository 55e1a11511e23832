import { Button, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import type { LabelColor } from '#shared/settings/constants.ts';
import { formatHours, type TimeboxSetting } from '#shared/settings/rules.ts';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { FormErrorAlert } from '../../../components/form-error-alert.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import type { SaveReporter } from '../../../lib/save-status.ts';
import { useStoreUser, useUserChange } from '../../../lib/user-change.ts';
import { runSaveStep, runSteps } from '../timebox-api.ts';
import {
  fieldOfIssue,
  findTodoistLabel,
  hasErrors,
  initialLabelColor,
  otherTimeboxLabels,
  planTimeboxSave,
  type TimeboxErrors,
  validateTimebox,
} from '../timebox-form.ts';
import { LabelColorPicker } from './label-color-picker.tsx';
import { LabelField } from './label-field.tsx';

type Props = {
  todo: TodoSettings;
  /** The setting to edit; absent to add a new one. */
  editing?: TimeboxSetting;
  /** The table's confirmation, which says "Saved" once this dialog has saved and closed. */
  status: SaveReporter;
  onClose: () => void;
};

/**
 * Adds or edits a timebox setting (docs/product-rules.md §2, §4, §5): label, duration and the label's Todoist
 * colour.
 */
export function TimeboxModal({ todo, editing, status, onClose }: Props) {
  const [values, setValues] = useState({
    label: editing?.label ?? '',
    duration: editing ? String(editing.duration) : '',
  });
  const [color, setColor] = useState<LabelColor>(initialLabelColor(todo.labels, values.label));
  const [colorChosen, setColorChosen] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<TimeboxErrors & { form?: string }>({});
  const storeUser = useStoreUser();
  const todoistConnected = todo.connected && !!todo.userId;

  const others = otherTimeboxLabels(todo.timeboxSettings, editing?.label);
  const checked = attempted ? validateTimebox(values, others) : {};
  const errors: TimeboxErrors = {
    duration: checked.duration ?? serverErrors.duration,
    label: checked.label ?? serverErrors.label,
  };
  const existing = findTodoistLabel(todo.labels, values.label);

  const save = useUserChange(
    () =>
      runSteps(
        planTimeboxSave({
          originalLabel: editing?.label,
          values,
          color,
          todoistLabels: todo.labels,
          todoistConnected,
        }),
        runSaveStep,
        storeUser,
      ),
    { errorTitle: 'The timebox setting was not saved', status },
  );

  const change = (field: 'label' | 'duration', value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors(({ [field]: _, form: __, ...rest }) => rest);
    if (field === 'label') {
      const label = findTodoistLabel(todo.labels, value);
      if (label) {
        setColor(initialLabelColor(todo.labels, value));
        setColorChosen(false);
      } else if (!colorChosen) {
        setColor(initialLabelColor(todo.labels, value));
      }
    }
  };

  const submit = () => {
    setAttempted(true);
    if (hasErrors(validateTimebox(values, others))) return;
    save.mutate(undefined, {
      onSuccess: onClose,
      onError: (error) => {
        const next: TimeboxErrors & { form?: string } = {};
        for (const issue of error instanceof ApiError ? error.issues : []) {
          const field = fieldOfIssue(issue.field);
          if (field) next[field] ??= issue.message;
        }
        if (!next.label && !next.duration) next.form = errorMessage(error);
        setServerErrors(next);
      },
    });
  };

  const label = values.label.trim();
  const colorHelp = !label
    ? undefined
    : existing
      ? `Choosing another colour changes the label “${existing.name}” on Todoist.`
      : `“${label}” is not on your Todoist account yet; it will be created there with this colour.`;

  return (
    <Modal
      opened
      onClose={() => !save.isPending && onClose()}
      title={editing ? 'Edit Timebox setting' : 'Add new Timebox setting'}
      centered
      closeOnClickOutside={!save.isPending}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack>
          {serverErrors.form && <FormErrorAlert title="Not saved">{serverErrors.form}</FormErrorAlert>}
          <LabelField
            labels={todo.labels}
            editedLabel={editing?.label}
            value={values.label}
            onChange={(value) => change('label', value)}
            error={errors.label}
            disabled={save.isPending}
          />
          <TextInput
            label="Duration (minutes)"
            description={`Between 1 and 1440 minutes. Hours: ${formatHours(values.duration.trim())}`}
            inputMode="numeric"
            placeholder="e.g. 30"
            value={values.duration}
            onChange={(event) => change('duration', event.currentTarget.value)}
            error={errors.duration}
            disabled={save.isPending}
            data-autofocus={editing ? true : undefined}
          />
          {todoistConnected && (
            <LabelColorPicker
              value={color}
              onChange={(next) => {
                setColor(next);
                setColorChosen(true);
              }}
              description={colorHelp}
              disabled={save.isPending}
            />
          )}
          <DialogActions onCancel={onClose} busy={save.isPending}>
            <Button type="submit" loading={save.isPending} disabled={hasErrors(errors) || save.isPending}>
              Save
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </Modal>
  );
}
