import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlugConnectedX } from '@tabler/icons-react';
import type { IntegrationProvider } from '../dashboard-api.ts';
import { RemoveIntegrationModal } from './remove-integration-modal.tsx';

export function RemoveIntegrationButton({ provider }: { provider: IntegrationProvider }) {
  const [opened, modal] = useDisclosure(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={
          <IconPlugConnectedX size={16} color="var(--mantine-color-red-light-color)" aria-hidden />
        }
        onClick={modal.open}
        aria-label={`Remove ${provider} integration`}
      >
        Remove
      </Button>
      <RemoveIntegrationModal provider={provider} opened={opened} onClose={modal.close} />
    </>
  );
}
