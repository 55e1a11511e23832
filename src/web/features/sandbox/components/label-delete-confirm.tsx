import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { SandboxLabel } from '#shared/api/sandbox.schema.ts';
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
      {error && (
        <Alert
          color="red"
          title="Not deleted"
          role="alert"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          {errorMessage(error)}
        </Alert>
      )}
      <Text>
        Delete the label <strong style={{ overflowWrap: 'anywhere' }}>{label.name}</strong>? Todoist removes
        it from every task.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={busy} data-autofocus>
          Cancel
        </Button>
        <Button color="red.9" onClick={onConfirm} loading={busy}>
          Delete label
        </Button>
      </Group>
    </Stack>
  );
}
