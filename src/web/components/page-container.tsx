import { Container, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function PageContainer({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>{title}</Title>
        {children}
      </Stack>
    </Container>
  );
}
