import { Button, Stack, Text } from '@mantine/core';
import type { SandboxLabel } from '#shared/api/sandbox.schema.ts';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { FormErrorAlert } from '../../../components/form-error-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';

type Props = {
  label: SandboxLabel;
  busy: boolean;
  error: Error | null;
  onConfirm: () => void;
  onCancel: () => void;
};

/** Asks before a Todoist label goes, since Todoist takes it off every task too. */
export function LabelDeleteConfirm({ label, busy, error, onConfirm, onCancel }: Props) {
  return (
    <Stack>
      {error && <FormErrorAlert title="Not deleted">{errorMessage(error)}</FormErrorAlert>}
      <Text>
        Delete the label <strong style={{ overflowWrap: 'anywhere' }}>{label.name}</strong>? Todoist removes
        it from every task.
      </Text>
      <DialogActions onCancel={onCancel} busy={busy} focusCancel>
        <Button color="red.9" onClick={onConfirm} loading={busy}>
          Delete label
        </Button>
      </DialogActions>
    </Stack>
  );
}
