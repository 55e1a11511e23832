import { Badge, Card, Group, SimpleGrid, Text } from '@mantine/core';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { isEntitled } from '#shared/billing/subscription-status.ts';
import { PageContainer } from '../../components/page-container.tsx';
import { SectionCard } from '../../components/section-card.tsx';
import { useAuth } from '../auth/api/current-user.ts';
import { NotLoggedIn } from '../auth/components/not-logged-in.tsx';
import { SubscriptionBanner } from '../billing/subscription-banner.tsx';

export function DashboardPage() {
  const user = useAuth();
  if (!user) return <NotLoggedIn />;
  return (
    <PageContainer title="Dashboard">
      <Text>Welcome, {user.name.firstName}.</Text>
      <StatusRow user={user} />
      <SectionCard title="Integrations">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <IntegrationCard name="Todoist" />
          <IntegrationCard name="Calendar" />
        </SimpleGrid>
      </SectionCard>
      <SectionCard title="Time Box Settings">
        <Text c="dimmed">You can add timebox settings once Todoist is connected.</Text>
      </SectionCard>
      <SectionCard title="Calendar Settings">
        <Text c="dimmed">Calendar settings become available once a calendar is connected.</Text>
      </SectionCard>
      <SectionCard title="Advanced Settings">
        <Text c="dimmed">Reminder and completion options become available once a calendar is connected.</Text>
      </SectionCard>
    </PageContainer>
  );
}

function StatusRow({ user }: { user: CurrentUser }) {
  const entitled = isEntitled(user.payment, new Date());
  const paused = user.syncActive && !entitled;
  return (
    <SectionCard title="Status">
      <SubscriptionBanner user={user} />
      <Group gap="xs">
        <Text>Sync</Text>
        <Badge color={paused ? 'red' : user.syncActive ? 'green' : 'gray'}>
          {paused ? 'paused' : user.syncActive ? 'active' : 'off'}
        </Badge>
      </Group>
      {paused && (
        <Text size="sm">
          Sync is paused because your{' '}
          {user.payment.subscriptionStatus === 'trial' ? 'free trial' : 'subscription'} has ended. It resumes
          as soon as you upgrade.
        </Text>
      )}
      <Text c="dimmed" size="sm">
        Sync can be switched on once Todoist and a calendar are connected and at least one timebox setting
        exists.
      </Text>
    </SectionCard>
  );
}

function IntegrationCard({ name }: { name: string }) {
  return (
    <Card withBorder padding="md">
      <Group justify="space-between">
        <Text fw={600}>{name}</Text>
        <Badge color="red">not connected</Badge>
      </Group>
      <Text size="sm" c="dimmed" mt="xs">
        Connecting {name === 'Calendar' ? 'a calendar' : name} is not available in this version yet.
      </Text>
    </Card>
  );
}
