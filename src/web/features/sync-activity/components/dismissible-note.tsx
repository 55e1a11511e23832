import { Alert, Button, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A note of the sync activity that stays until the user has read it ("Got it"). */
export function DismissibleNote(props: {
  text: { title: string; message: string };
  color: string;
  icon: ReactNode;
  dismiss: { mutate: () => void; isPending: boolean };
}) {
  const { text, color, icon, dismiss } = props;
  return (
    <Alert variant="light" color={color} title={text.title} icon={icon} role="status">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{text.message}</Text>
        <Button size="xs" variant="default" onClick={() => dismiss.mutate()} loading={dismiss.isPending}>
          Got it
        </Button>
      </Stack>
    </Alert>
  );
}
