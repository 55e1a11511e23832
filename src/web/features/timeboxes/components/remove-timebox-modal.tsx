import { Button, Checkbox, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import { pluralizeMinutes, type TimeboxSetting } from '#shared/settings/rules.ts';
import { ChangePreviewSummary } from '../../../components/change-preview.tsx';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { FormErrorAlert } from '../../../components/form-error-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/current-user.ts';
import type { SaveReporter } from '../../../lib/save-status.ts';
import { useStoreUser, useUserChange } from '../../../lib/user-change.ts';
import { runSteps, timeboxCalls } from '../timebox-api.ts';
import { findTodoistLabel } from '../timebox-form.ts';

type Props = {
  todo: TodoSettings;
  setting: TimeboxSetting;
  /** The table's confirmation, which says "Saved" once the setting is removed and this dialog closed. */
  status: SaveReporter;
  onClose: () => void;
};

/** Removes a timebox setting and, if asked, its label on Todoist first (docs/product-rules.md §2, §7). */
export function RemoveTimeboxModal({ todo, setting, status, onClose }: Props) {
  const [alsoOnTodoist, setAlsoOnTodoist] = useState(false);
  const storeUser = useStoreUser();
  const auth = useAuth();
  const syncing = !!auth && auth.syncActive;
  const todoistLabel = todo.connected ? findTodoistLabel(todo.labels, setting.label) : undefined;

  const remove = useUserChange(
    () => {
      const steps = [
        ...(alsoOnTodoist && todoistLabel ? [() => timeboxCalls.deleteLabel(todoistLabel.id)] : []),
        () => timeboxCalls.remove(setting.label),
      ];
      return runSteps(steps, (step) => step(), storeUser);
    },
    { errorTitle: 'The timebox setting was not removed', status },
  );

  return (
    <Modal opened onClose={() => !remove.isPending && onClose()} title="Remove Timebox setting" centered>
      <Stack>
        {remove.isError && <FormErrorAlert title="Not removed">{errorMessage(remove.error)}</FormErrorAlert>}
        <Text>
          Do you want to remove the timebox setting “{setting.label}” ({pluralizeMinutes(setting.duration)})?
          Tasks with this label will no longer be timeboxed.
        </Text>
        {syncing && (
          <ChangePreviewSummary
            query={{ change: 'removeTimebox', label: setting.label }}
            calendarName={null}
          />
        )}
        <Checkbox
          label={`Also delete the label “${setting.label}” on Todoist`}
          description={
            todoistLabel?.color
              ? 'The label is removed from your Todoist account and from all its tasks.'
              : 'This label is not available on your Todoist account.'
          }
          checked={alsoOnTodoist}
          onChange={(event) => setAlsoOnTodoist(event.currentTarget.checked)}
          disabled={!todoistLabel?.color || remove.isPending}
        />
        <DialogActions onCancel={onClose} busy={remove.isPending} focusCancel>
          <Button
            color="red.9"
            loading={remove.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: onClose })}
          >
            Remove
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}
