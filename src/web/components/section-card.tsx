import { Card, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

type Props = {
  title: string;
  id?: string;
  /** Shown beside the title: the card's save confirmation (`<SaveStatus />`). */
  status?: ReactNode;
  children: ReactNode;
};

export function SectionCard({ title, id, status, children }: Props) {
  const heading = (
    <Title order={2} size="h4">
      {title}
    </Title>
  );
  return (
    <Card withBorder padding="lg" component="section" aria-label={title} id={id}>
      <Stack gap="sm">
        {status ? (
          <Group gap="md" align="center" style={{ rowGap: 4 }}>
            {heading}
            {status}
          </Group>
        ) : (
          heading
        )}
        {children}
      </Stack>
    </Card>
  );
}
