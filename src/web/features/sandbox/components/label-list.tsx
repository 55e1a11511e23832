import { Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import type { SandboxLabel, SandboxTask } from '#shared/api/sandbox.schema.ts';
import { countOf } from '#shared/text/count-of.ts';
import { sandboxCalls, useSandboxChange } from '../sandbox-api.ts';
import { DeleteItemButton, EditItemButton, ItemList } from './item-list.tsx';
import { LabelDeleteConfirm } from './label-delete-confirm.tsx';
import { LabelRenameForm } from './label-rename-form.tsx';

type Props = {
  email: string;
  labels: SandboxLabel[];
  /** The open tasks, to tell how many carry each label. */
  tasks: SandboxTask[];
  /** Another account's labels, shown until the chosen one's are read: not to be changed. */
  busy: boolean;
};

/** The account's Todoist labels, each renamed or deleted as in Todoist, where tasks follow. */
export function LabelList({ email, labels, tasks, busy }: Props) {
  const headingId = useId();
  const [renaming, setRenaming] = useState<SandboxLabel | null>(null);
  const [deleting, setDeleting] = useState<SandboxLabel | null>(null);
  const rename = useSandboxChange('todoist', sandboxCalls.renameLabel);
  const remove = useSandboxChange('todoist', sandboxCalls.deleteLabel);

  const openRename = (label: SandboxLabel) => {
    rename.reset();
    setRenaming(label);
  };
  const openDelete = (label: SandboxLabel) => {
    remove.reset();
    setDeleting(label);
  };

  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs" mt="lg">
      <Title id={headingId} order={3} size="h5">
        Labels
      </Title>
      {labels.length === 0 && (
        <Text size="sm" c="dimmed">
          This Todoist account has no labels. A timebox added on the dashboard creates its label here.
        </Text>
      )}
      <ItemList busy={busy}>
        {labels.map((label) => (
          <Group key={label.id} component="li" justify="space-between" wrap="nowrap" gap="xs">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Text size="sm" truncate>
                @{label.name}
              </Text>
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                {taskCount(tasks, label.name)}
              </Text>
            </Group>
            <Group gap={4} wrap="nowrap">
              <EditItemButton
                label={`Rename label ${label.name}`}
                onClick={() => openRename(label)}
                disabled={busy}
              />
              <DeleteItemButton
                label={`Delete label ${label.name}`}
                onClick={() => openDelete(label)}
                disabled={busy}
              />
            </Group>
          </Group>
        ))}
      </ItemList>
      <Modal
        opened={renaming !== null}
        onClose={() => !rename.isPending && setRenaming(null)}
        title="Rename label"
        centered
      >
        {renaming && (
          <LabelRenameForm
            label={renaming}
            busy={rename.isPending}
            error={rename.error}
            onSubmit={(name) =>
              rename.mutate({ id: renaming.id, email, name }, { onSuccess: () => setRenaming(null) })
            }
            onCancel={() => setRenaming(null)}
          />
        )}
      </Modal>
      <Modal
        opened={deleting !== null}
        onClose={() => !remove.isPending && setDeleting(null)}
        title="Delete label?"
        centered
      >
        {deleting && (
          <LabelDeleteConfirm
            label={deleting}
            busy={remove.isPending}
            error={remove.error}
            onConfirm={() =>
              remove.mutate({ id: deleting.id, email }, { onSuccess: () => setDeleting(null) })
            }
            onCancel={() => setDeleting(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}

function taskCount(tasks: SandboxTask[], name: string): string {
  const count = tasks.filter((task) => task.labels.includes(name)).length;
  return countOf(count, 'open task');
}
