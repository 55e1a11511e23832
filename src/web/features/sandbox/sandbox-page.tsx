import { Alert, Container, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFlask } from '@tabler/icons-react';
import { useState } from 'react';
import { usePublicConfig } from '../../lib/public-config.ts';
import { useAuth } from '../auth/api/current-user.ts';
import { CalendarPanel } from './components/calendar-panel.tsx';
import { TodoistPanel } from './components/todoist-panel.tsx';

/** The emulated sign-in pages suggest this identity, so it is the natural account to look at. */
const DEFAULT_SANDBOX_EMAIL = 'ada.lovelace@example.com';

/** Sandbox mode only: the emulated Todoist and calendar side by side, to change and watch the sync. */
export function SandboxPage() {
  const config = usePublicConfig();
  const user = useAuth();
  const [email, setEmail] = useState(user ? user.email || DEFAULT_SANDBOX_EMAIL : DEFAULT_SANDBOX_EMAIL);
  const [account] = useDebouncedValue(email.trim().toLowerCase(), 400);

  if (config.isPending) return <Loader role="status" m="xl" aria-label="Loading" />;
  if (!config.data?.sandbox) {
    return (
      <Container size="sm" py={64}>
        <Title order={1}>Page not found</Title>
        <Text c="dimmed" mt="md">
          The sandbox console exists only when the product runs with emulated providers.
        </Text>
      </Container>
    );
  }

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>Sandbox console</Title>
        <Alert icon={<IconFlask />} color="blue" variant="light" title="Everything here is emulated">
          These are the local stand-ins for Todoist, Google Calendar and Microsoft 365. Change a task or an
          event here as you would in those apps, and watch the other side follow once sync is active. Each
          e-mail address is its own account, the one you choose on the emulated connect pages.
        </Alert>
        <TextInput
          label="Account e-mail"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          maw={420}
          type="email"
        />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <TodoistPanel email={account} />
          <CalendarPanel email={account} />
        </SimpleGrid>
      </Stack>
    </Container>
  );
}
