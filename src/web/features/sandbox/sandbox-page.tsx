import { Alert, Container, Grid, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconFlask, IconLock } from '@tabler/icons-react';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import type { SandboxAccounts } from '#shared/api/sandbox.schema.ts';
import { SignInButtons } from '../../components/sign-in-buttons.tsx';
import { useAuth } from '../../lib/current-user.ts';
import { usePublicConfig } from '../../lib/public-config.ts';
import { displayZone, zoneLabel } from '../../lib/time-zone.ts';
import { CalendarPanel } from './components/calendar-panel.tsx';
import { InboxPanel } from './components/inbox-panel.tsx';
import { SandboxSyncActivity } from './components/sandbox-sync-activity.tsx';
import { TodoistPanel } from './components/todoist-panel.tsx';
import { useSandboxAccounts } from './sandbox-api.ts';

/** The emulated sign-in and connect pages suggest this identity, so it is the natural account to look at. */
const DEFAULT_SANDBOX_EMAIL = 'ada.lovelace@example.com';

/**
 * Sandbox mode only: the emulated Todoist and calendar side by side, to change and watch the sync, and the
 * notice mails it sends.
 */
export function SandboxPage() {
  const config = usePublicConfig();
  const user = useAuth();
  const sandbox = config.data?.sandbox === true;
  const accounts = useSandboxAccounts(sandbox && user !== null);
  const zone = displayZone(user);

  if (config.isPending) return <Loader role="status" m="xl" aria-label="Loading" />;
  if (!sandbox) {
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
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Title order={1}>Sandbox console</Title>
        <Alert icon={<IconFlask />} color="blue" variant="light" title="Everything here is emulated">
          These are the local stand-ins for Todoist, Google Calendar and Microsoft 365. Change a task or an
          event here as you would in those apps, and watch the other side follow once sync is active. Each
          e-mail address is its own account, the one you choose on the emulated connect pages; the console
          opens on the accounts you connected, and works on those and on your sign-in address only. The inbox
          shows the notice mails Timeboxer sends you when your sync stops or needs you.
          <Text size="sm" mt="xs">
            {zoneLabel(zone)}
          </Text>
        </Alert>
        {user === false ? (
          <SignInFirst />
        ) : user === null || accounts.isPending ? (
          <Loader role="status" aria-label="Loading your accounts" />
        ) : (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Panels user={user} accounts={accounts.data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Stack gap="lg">
                <SandboxSyncActivity user={user} />
                <InboxPanel user={user} />
              </Stack>
            </Grid.Col>
          </Grid>
        )}
      </Stack>
    </Container>
  );
}

/** The console acts only on the visitor's own emulated accounts, so a visitor signs in first. */
function SignInFirst() {
  return (
    <Alert icon={<IconLock />} color="gray" variant="outline" title="Sign in to use the console">
      <Text size="sm" mb="sm">
        The console works on your own emulated accounts: the Todoist and calendar of the e-mail address you
        sign in with, and the ones you connect on the dashboard.
      </Text>
      <SignInButtons />
    </Alert>
  );
}

/** Each side opens on the account connected to it, else on the sign-in address, else the suggested one. */
function Panels({ user, accounts }: { user: CurrentUser | false; accounts: SandboxAccounts | undefined }) {
  const fallback = (user ? user.email : '') || DEFAULT_SANDBOX_EMAIL;
  const calendar = accounts?.calendar;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <TodoistPanel initialEmail={accounts?.todoist?.email ?? fallback} />
      <CalendarPanel
        initialEmail={calendar?.email ?? fallback}
        initialProvider={calendar?.provider ?? 'google'}
        initialCalendarId={calendar?.calendarId ?? undefined}
      />
      {/* The calendar accounts added beside the sync's: Plan my day reads their busy times. */}
      {accounts?.others.map((account) => (
        <CalendarPanel
          key={`${account.provider}:${account.email}`}
          initialEmail={account.email ?? fallback}
          initialProvider={account.provider}
        />
      ))}
    </SimpleGrid>
  );
}
