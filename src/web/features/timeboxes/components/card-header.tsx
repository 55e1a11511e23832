import { Group, Title } from '@mantine/core';
import type { ComponentProps, ReactNode } from 'react';
import { SaveStatus } from '../../../components/save-status.tsx';

type Props = {
  title: string;
  /** The title's id, which names the card (`aria-labelledby`). */
  titleId: string;
  /** The card's save confirmation, beside the title. */
  status: ComponentProps<typeof SaveStatus>['status'];
  /** At the header's other end: a badge or the card's main button. */
  children: ReactNode;
};

/** The header of a card in the Timeboxes section: its title with the card's save status, and `children`. */
export function CardHeader({ title, titleId, status, children }: Props) {
  return (
    <Group justify="space-between" gap="xs">
      <Group gap="md" style={{ rowGap: 4 }}>
        <Title order={3} size="h5" id={titleId}>
          {title}
        </Title>
        <SaveStatus status={status} />
      </Group>
      {children}
    </Group>
  );
}
