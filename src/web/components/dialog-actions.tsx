import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

type Props = {
  onCancel: () => void;
  /** While the action runs, Cancel is off. */
  busy?: boolean;
  /** Focus Cancel when the dialog opens, for a dialog whose action is hard to undo. */
  focusCancel?: boolean;
  /** The dialog's action button. */
  children: ReactNode;
};

/** A dialog's closing row: Cancel, then the action. */
export function DialogActions({ onCancel, busy, focusCancel, children }: Props) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} disabled={busy} data-autofocus={focusCancel || undefined}>
        Cancel
      </Button>
      {children}
    </Group>
  );
}
