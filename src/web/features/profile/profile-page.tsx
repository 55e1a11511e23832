import { Button, Group, Table } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { PageContainer } from '../../components/page-container.tsx';
import { SectionCard } from '../../components/section-card.tsx';
import { paths } from '../../lib/paths.ts';
import { useAuth } from '../auth/api/current-user.ts';
import { NotLoggedIn } from '../auth/components/not-logged-in.tsx';
import { SubscriptionCard } from '../billing/subscription-card.tsx';
import { DangerZone } from './components/danger-zone.tsx';

export function ProfilePage() {
  const user = useAuth();
  if (!user) return <NotLoggedIn />;
  return (
    <PageContainer title="Your Profile">
      <Group>
        <Button
          component={Link}
          to={paths.dashboard}
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
        >
          Back to dashboard
        </Button>
      </Group>
      <PersonalData user={user} />
      <SubscriptionCard user={user} />
      <DangerZone />
    </PageContainer>
  );
}

function PersonalData({ user }: { user: CurrentUser }) {
  const rows: [string, string][] = [
    ['Name', user.name.displayName],
    ['E-mail', user.email || '—'],
    ['Login provider', user.googleId ? 'Google' : 'Facebook'],
  ];
  return (
    <SectionCard title="Personal Data">
      <Table variant="vertical" withTableBorder={false}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={160}>{label}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </SectionCard>
  );
}
