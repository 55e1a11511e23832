import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangleFilled } from '@tabler/icons-react';
import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { useDismissOtherSync } from '../../../lib/sync-activity.ts';
import { otherSyncText } from '../other-sync.ts';

type OtherSync = NonNullable<SyncActivity['otherSync']>;

/** Another sync (Todoist's own calendar integration) writes into the chosen calendar; shown until read. */
export function OtherSyncNote({ otherSync }: { otherSync: OtherSync }) {
  const dismiss = useDismissOtherSync();
  const text = otherSyncText(otherSync);
  return (
    <Alert
      variant="light"
      color="yellow"
      title={text.title}
      icon={<IconAlertTriangleFilled aria-hidden />}
      role="status"
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{text.message}</Text>
        <Button size="xs" variant="default" onClick={() => dismiss.mutate()} loading={dismiss.isPending}>
          Got it
        </Button>
      </Stack>
    </Alert>
  );
}
