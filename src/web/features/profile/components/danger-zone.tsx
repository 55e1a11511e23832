import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { DELETE_CONFIRMATION_WORD, isDeleteConfirmation } from '#shared/validation/delete-account.ts';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { paths } from '../../../lib/paths.ts';

export function DangerZone() {
  const [opened, modal] = useDisclosure(false);
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);

  const close = () => {
    setTyped('');
    modal.close();
  };
  const confirm = () => {
    setDeleting(true);
    // A full navigation: the server deletes the account, ends the session and sends us home.
    window.location.assign(paths.deleteAccount);
  };

  return (
    <SectionCard title="Danger Zone">
      <Text size="sm">
        Deleting your account stops all synchronisation and removes everything we store about you. Your tasks
        and events stay in Todoist and your calendar.
      </Text>
      <Group>
        <Button color="red" variant="outline" onClick={modal.open}>
          Delete account
        </Button>
      </Group>
      <Modal opened={opened} onClose={close} title="Delete your account?" centered>
        <Stack>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconAlertTriangle color="var(--mantine-color-red-6)" size={20} aria-hidden />
            <Text size="sm">This cannot be undone. Type {DELETE_CONFIRMATION_WORD} to confirm.</Text>
          </Group>
          <TextInput
            label={`Type "${DELETE_CONFIRMATION_WORD}" to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            disabled={deleting}
            data-autofocus
          />
          <DialogActions onCancel={close} busy={deleting}>
            <Button
              color="red"
              onClick={confirm}
              loading={deleting}
              disabled={!isDeleteConfirmation(typed) || deleting}
            >
              Delete my account
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
    </SectionCard>
  );
}
