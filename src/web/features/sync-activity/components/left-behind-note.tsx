import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconInfoCircleFilled } from '@tabler/icons-react';
import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { useDismissLeftBehind } from '../../../lib/sync-activity.ts';
import { leftBehindText } from '../left-behind.ts';

type LeftBehind = NonNullable<SyncActivity['leftBehind']>;

/** Where events of ours stayed when the user switched to another calendar account or provider. */
export function LeftBehindNote({ leftBehind }: { leftBehind: LeftBehind }) {
  const dismiss = useDismissLeftBehind();
  const text = leftBehindText(leftBehind);
  return (
    <Alert
      variant="light"
      color="blue"
      title={text.title}
      icon={<IconInfoCircleFilled aria-hidden />}
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
