import { ActionIcon, Stack } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * A panel's list of one kind of item (tasks, events, projects, labels): dimmed and marked busy while it
 * still shows another account's items.
 */
export function ItemList({
  busy,
  gap = 4,
  children,
}: {
  busy: boolean;
  gap?: number | 'xs';
  children: ReactNode;
}) {
  return (
    <Stack
      gap={gap}
      component="ul"
      style={{ listStyle: 'none', padding: 0, margin: 0, opacity: busy ? 0.6 : 1 }}
      aria-busy={busy}
    >
      {children}
    </Stack>
  );
}

type ItemButtonProps = {
  /** What the button does to which item, e.g. `Rename label @home`. */
  label: string;
  onClick: () => void;
  disabled?: boolean;
};

/** An item's pencil button: edit or rename it. */
export function EditItemButton({ label, onClick, disabled }: ItemButtonProps) {
  return (
    <ActionIcon variant="subtle" aria-label={label} onClick={onClick} disabled={disabled}>
      <IconPencil size={16} />
    </ActionIcon>
  );
}

/** An item's red bin button: delete it. */
export function DeleteItemButton({ label, onClick, disabled }: ItemButtonProps) {
  return (
    <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick} disabled={disabled}>
      <IconTrash size={16} />
    </ActionIcon>
  );
}
