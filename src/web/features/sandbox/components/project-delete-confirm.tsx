import { Button, Stack, Text } from '@mantine/core';
import type { SandboxProject } from '#shared/api/sandbox.schema.ts';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { FormErrorAlert } from '../../../components/form-error-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';

type Props = {
  project: SandboxProject;
  busy: boolean;
  error: Error | null;
  onConfirm: () => void;
  onCancel: () => void;
};

/** Asks before a Todoist project goes, since Todoist deletes its sub-projects and their tasks too. */
export function ProjectDeleteConfirm({ project, busy, error, onConfirm, onCancel }: Props) {
  return (
    <Stack>
      {error && <FormErrorAlert title="Not deleted">{errorMessage(error)}</FormErrorAlert>}
      <Text>
        Delete the project <strong style={{ overflowWrap: 'anywhere' }}>{project.name}</strong>? Todoist
        deletes its sub-projects and every task in them. Archiving keeps them instead.
      </Text>
      <DialogActions onCancel={onCancel} busy={busy} focusCancel>
        <Button color="red.9" onClick={onConfirm} loading={busy}>
          Delete project
        </Button>
      </DialogActions>
    </Stack>
  );
}
