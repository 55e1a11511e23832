import { Container, Group, Paper, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { SIGN_IN_REQUIRED } from '#shared/api/auth.schema.ts';
import { SignInButtons } from './sign-in-buttons.tsx';

/** What the dashboard and profile show to a visitor who is signed out (docs/product-rules.md §2, §8). */
export function NotLoggedIn() {
  return (
    <Container size="sm" py={64}>
      <Paper withBorder p="xl" radius="md">
        <Group gap="sm" mb="xs">
          <IconLock size={24} aria-hidden />
          <Title order={1} size="h3">
            You are not logged in
          </Title>
        </Group>
        <Text c="dimmed" mb="lg">
          {SIGN_IN_REQUIRED}
        </Text>
        <SignInButtons />
      </Paper>
    </Container>
  );
}
