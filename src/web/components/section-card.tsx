import { Card, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function SectionCard({ title, id, children }: { title: string; id?: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title} id={id}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}
