import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { showToast } from '../../../lib/toast.tsx';
import { useUserChange } from '../../../lib/user-change.ts';
import { dashboardCalls, type IntegrationProvider } from '../dashboard-api.ts';

type Props = { provider: IntegrationProvider; opened: boolean; onClose: () => void };

/**
 * The confirmation before revoking an integration (docs/product-rules.md §2), then the 'Integration removed'
 * toast.
 */
export function RemoveIntegrationModal({ provider, opened, onClose }: Props) {
  const revoke = useUserChange(dashboardCalls.revoke, { errorTitle: 'The integration was not removed' });

  // The card holding this dialog changes once the integration is gone, so the promise, not a
  // callback of mutate (dropped on unmount), announces the removal.
  const confirm = () =>
    revoke.mutateAsync(provider).then(
      () => {
        onClose();
        showToast('success', {
          title: 'Integration removed',
          message: `You removed your ${provider} integration`,
        });
      },
      () => {
        // Already shown as an error toast; the dialog stays open to try again.
      },
    );

  return (
    <Modal
      opened={opened}
      onClose={() => !revoke.isPending && onClose()}
      title={`Do you really want to remove your ${provider} integration?`}
      centered
    >
      <Stack>
        <Text>All your synchronisations will stop working.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={revoke.isPending} data-autofocus>
            No, cancel
          </Button>
          <Button color="red.9" onClick={confirm} loading={revoke.isPending}>
            Yes
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
