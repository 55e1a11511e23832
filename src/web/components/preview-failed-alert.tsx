import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';

type Props = {
  /** What went wrong, in the user's words. */
  children: ReactNode;
  /** Asks for the preview again. */
  onRetry: () => void;
  retrying: boolean;
};

/** A preview (of switching sync or Plan my day on) that could not be loaded, and a button to ask again. */
export function PreviewFailedAlert({ children, onRetry, retrying }: Props) {
  return (
    <Alert color="red" title="The preview could not be loaded">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{children}</Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} aria-hidden />}
          onClick={onRetry}
          loading={retrying}
        >
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}
