import { Button, Modal, Stack, Text } from '@mantine/core';
import { DialogActions } from './dialog-actions.tsx';

type Props = {
  opened: boolean;
  /** The dialog's title: what goes, by count or by name ("Remove 6 events?", "Remove “Review PR”?"). */
  question: string;
  /** What removing does to each side. */
  consequences: string[];
  /** The action button's label. */
  confirm: string;
  onCancel: () => void;
  onConfirm: () => void;
};

/** The question before held removals are carried out: Cancel has the focus, removing is not undone. */
export function RemoveConfirmation({ opened, question, consequences, confirm, onCancel, onConfirm }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={question} centered>
      <Stack>
        {consequences.map((line) => (
          <Text key={line}>{line}</Text>
        ))}
        <DialogActions onCancel={onCancel} focusCancel>
          <Button color="red" onClick={onConfirm}>
            {confirm}
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}
